"""Segmentation loss that one-hot encodes the label mask with scatter_; the Dataset returns the mask as int64
source: https://github.com/samleoqh/MSCG-Net/issues/7
reported-error: Expected object of scalar type Long but got scalar type Float for argument #3 'index' (in the broken version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class AgricultureDataset(Dataset):
    def __init__(self, n=8, size=32, num_classes=4):
        rng = np.random.default_rng(0)
        self.images = rng.random((n, 3, size, size), dtype=np.float32)
        self.masks = rng.integers(0, num_classes, size=(n, size, size))

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return torch.from_numpy(self.images[i]), torch.from_numpy(self.masks[i]).long()


class ACW_loss(nn.Module):
    def __init__(self, eps=1e-5, ignore_index=255):
        super().__init__()
        self.ignore_index, self.eps = ignore_index, eps

    def forward(self, prediction, target):
        pred = prediction.softmax(1)
        one_hot_label = pred.detach() * 0
        target = target.clone()
        target[target == self.ignore_index] = 0
        one_hot_label.scatter_(1, target.unsqueeze(1), 1)
        acw = 1.0 / (one_hot_label.sum(dim=(0, 2, 3), keepdim=True) + self.eps)
        return (acw * (one_hot_label - pred) ** 2).sum(1).mean()


if __name__ == "__main__":
    net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 4, 1))
    criterion = ACW_loss()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    for epoch in range(2):
        for inputs, labels in DataLoader(AgricultureDataset(), batch_size=4, shuffle=True):
            loss = criterion(net(inputs), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print("epoch", epoch, loss.item())
