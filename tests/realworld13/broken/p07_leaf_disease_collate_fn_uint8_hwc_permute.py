"""Leaf-disease classifier whose images are uint8 HWC arrays (as PIL/cv2 give them); collate_fn stacks them and permutes to NCHW by hand but never converts to float or scales by 255, so the uint8 batch reaches Conv2d
source: https://discuss.pytorch.org/t/loading-an-unsigned-8bit-integer/176627/2
reported-error: uint8 image tensors have to be converted (ToTensor: float32 in [0, 1]) before a model can use them
outcome: RuntimeError: Input type (unsigned char) and bias type (float) should be the same at line 45
root-cause: line 29
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, Subset


class LeafImages(Dataset):
    def __init__(self, n=48, size=32, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.integers(0, 256, size=(n, size, size, 3), dtype=np.uint8)
        self.labels = rng.integers(0, 3, size=n)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], int(self.labels[i])


def collate_fn(batch):
    images = np.stack([img for img, _ in batch])
    x = torch.from_numpy(images).permute(0, 3, 1, 2).contiguous()  # root-cause
    y = torch.tensor([label for _, label in batch])
    return x, y


def make_model():
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(32, 3))


def accuracy(model, loader):
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            pred = model(x).argmax(1)  # fails-here
            correct += (pred == y).sum().item()
            total += len(y)
    return correct / total


dataset = LeafImages()
val_loader = DataLoader(Subset(dataset, range(40, 48)), batch_size=8, collate_fn=collate_fn)
model = make_model()
print("untrained val acc", accuracy(model, val_loader))
