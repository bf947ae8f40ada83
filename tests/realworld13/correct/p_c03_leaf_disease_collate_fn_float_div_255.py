"""Leaf-disease classifier whose collate_fn converts the stacked uint8 HWC images with .permute(0, 3, 1, 2).float().div_(255) and normalises them with mean/std tensors moved .to(x); accuracy with == and .sum()/len on a Subset
source: https://discuss.pytorch.org/t/loading-an-unsigned-8bit-integer/176627/2
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, Subset

MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)


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
    x = torch.from_numpy(np.stack([img for img, _ in batch])).permute(0, 3, 1, 2).float().div_(255)
    x = (x - MEAN.to(x)) / STD.to(x)
    return x, torch.tensor([label for _, label in batch])


model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 3))
dataset = LeafImages()
train_loader = DataLoader(Subset(dataset, range(40)), batch_size=8, shuffle=True, collate_fn=collate_fn)
val_loader = DataLoader(Subset(dataset, range(40, 48)), batch_size=8, collate_fn=collate_fn)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for x, y in train_loader:
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
correct = total = 0
with torch.no_grad():
    for x, y in val_loader:
        correct += (model(x).argmax(1) == y).sum().item()
        total += len(y)
print("val acc", correct / total)
