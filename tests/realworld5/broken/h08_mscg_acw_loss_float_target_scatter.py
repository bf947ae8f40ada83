"""Segmentation with an adaptive class-weighted loss: label masks are loaded as float and used as the scatter_ index for the one-hot encoding
source: https://github.com/samleoqh/MSCG-Net/issues/7
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Float for argument #3 'index'
outcome: RuntimeError: scatter(): Expected dtype int32/int64 for index at line 47
root-cause: line 25
expect: DG006
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
        img = torch.from_numpy(self.images[i])
        mask = torch.from_numpy(self.masks[i]).float()  # root-cause
        return img, mask


class ACW_loss(nn.Module):
    def __init__(self, ini_weight=0, ini_iteration=0, eps=1e-5, ignore_index=255):
        super().__init__()
        self.ignore_index = ignore_index
        self.eps = eps

    def forward(self, prediction, target):
        pred = prediction.softmax(1)
        one_hot_label, mask = self.encode_one_hot_label(pred, target)
        acw = 1.0 / (one_hot_label.sum(dim=(0, 2, 3), keepdim=True) + self.eps)
        err = torch.pow(one_hot_label - pred, 2)
        return (acw * err).sum(1).mean()

    def encode_one_hot_label(self, pred, target):
        one_hot_label = pred.detach() * 0
        mask = target == self.ignore_index
        target = target.clone()
        target[mask] = 0
        one_hot_label.scatter_(1, target.unsqueeze(1), 1)  # fails-here
        return one_hot_label, mask


def main():
    net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 4, 1))
    criterion = ACW_loss()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    loader = DataLoader(AgricultureDataset(), batch_size=4, shuffle=True)
    for epoch in range(2):
        for inputs, labels in loader:
            optimizer.zero_grad()
            outputs = net(inputs)
            main_loss = criterion(outputs, labels)
            main_loss.backward()
            optimizer.step()
        print("epoch", epoch, main_loss.item())


if __name__ == "__main__":
    main()
