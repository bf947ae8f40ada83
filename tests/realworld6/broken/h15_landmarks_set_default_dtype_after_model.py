"""Landmark CNN trained from an iterable dataset: following a forum tip, torch.set_default_dtype(torch.float64) is called after the network is built, so the data (torch.tensor of Python floats) becomes float64 while the layers stay float32
source: https://github.com/pytorch/pytorch/issues/2138
reported-error: RuntimeError: expected Double tensor (got Float tensor) / Found dtype Double but expected Float (thread: "I tried torch.set_default_dtype(torch.float64) and it solved it")
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 36
root-cause: line 44
expect: DG001
"""
import math
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, IterableDataset


class LandmarkStream(IterableDataset):
    def __init__(self, n=48, size=16, seed=0):
        self.n, self.size, self.seed = n, size, seed

    def __iter__(self):
        rnd = random.Random(self.seed)
        for _ in range(self.n):
            cx, cy = rnd.uniform(4, 12), rnd.uniform(4, 12)
            img = [[[math.exp(-((x - cx) ** 2 + (y - cy) ** 2) / 8.0) for x in range(self.size)] for y in range(self.size)]]
            yield torch.tensor(img), torch.tensor([cx / self.size, cy / self.size])


class LandmarkNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(8 * 8 * 8, 2)

    def forward(self, x):
        x = self.pool(torch.relu(self.conv1(x)))  # fails-here
        return torch.sigmoid(self.fc(x.flatten(1)))


network = LandmarkNet()
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(network.parameters(), lr=1e-3)

torch.set_default_dtype(torch.float64)  # root-cause

train_loader = DataLoader(LandmarkStream(), batch_size=8)
for epoch in range(2):
    running = 0.0
    for step, (images, landmarks) in enumerate(train_loader):
        predictions = network(images)
        loss_train_step = criterion(predictions, landmarks)
        optimizer.zero_grad()
        loss_train_step.backward()
        optimizer.step()
        running += loss_train_step.item()
    print(f"epoch {epoch} loss {running / (step + 1):.4f}")
