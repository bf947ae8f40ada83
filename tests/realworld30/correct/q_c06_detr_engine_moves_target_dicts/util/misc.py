import torch


class NestedTensor:
    def __init__(self, tensors, mask):
        self.tensors = tensors
        self.mask = mask

    def to(self, device):
        return NestedTensor(self.tensors.to(device), self.mask.to(device))

    def decompose(self):
        return self.tensors, self.mask


def nested_tensor_from_tensor_list(tensor_list):
    tensors = torch.stack(tensor_list)
    mask = torch.zeros(tensors.shape[0], tensors.shape[2], tensors.shape[3], dtype=torch.bool)
    return NestedTensor(tensors, mask)


def collate_fn(batch):
    batch = list(zip(*batch))
    batch[0] = nested_tensor_from_tensor_list(list(batch[0]))
    return tuple(batch)
