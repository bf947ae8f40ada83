"""Lottery-ticket style CIFAR-like trainer: the dataset class stores its labels with torch.tensor(labels, dtype=torch.int32) to save memory; train_step() feeds them to F.cross_entropy, with an EarlyStopping helper and a StepLR scheduler around the loop
source: https://github.com/facebookresearch/open_lth/pull/10
reported-error: RuntimeError: expected scalar type Long but found Int (the PR changes the labels from int32 to long)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 41
root-cause: line 19
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class TinyImages(Dataset):
    def __init__(self, n=96, seed=0):
        rng = np.random.default_rng(seed)
        self.images = torch.from_numpy(rng.normal(size=(n, 3, 8, 8)).astype(np.float32))
        self.labels = torch.tensor(rng.integers(0, 10, n), dtype=torch.int32)  # root-cause

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


class EarlyStopping:
    def __init__(self, patience=2):
        self.best, self.bad, self.patience = float("inf"), 0, patience

    def step(self, value):
        if value < self.best:
            self.best, self.bad = value, 0
        else:
            self.bad += 1
        return self.bad > self.patience


def train_step(model, images, labels, optimizer):
    loss = F.cross_entropy(model(images), labels)  # fails-here
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 6 * 6, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
stopper = EarlyStopping()
loader = DataLoader(TinyImages(), batch_size=32, shuffle=True)
for epoch in range(3):
    losses = [train_step(model, x, y, optimizer) for x, y in loader]
    scheduler.step()
    if stopper.step(float(np.mean(losses))):
        break
print("done", stopper.best)
