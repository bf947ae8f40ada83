"""Bike-demand forecaster whose calendar encoder feeds F.one_hot(weekday, 7) straight into an nn.Linear; F.one_hot returns int64, so the weekday branch of the model receives a Long tensor
source: https://github.com/kevinzakka/pytorch-goodies/issues/12
reported-error: question about building one-hot encodings with F.one_hot instead of torch.eye indexing (F.one_hot returns an integer tensor)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float at line 41
root-cause: line 30
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class HourlyDemand(Dataset):
    def __init__(self, n=168, seed=0):
        rng = np.random.default_rng(seed)
        self.weekday = np.arange(n) // 24 % 7
        self.weather = rng.normal(size=(n, 3)).astype(np.float32)
        self.count = (50 + 10 * (self.weekday < 5) + rng.normal(0, 3, n)).astype(np.float32)

    def __len__(self):
        return len(self.count)

    def __getitem__(self, i):
        return int(self.weekday[i]), self.weather[i], self.count[i]


def encode_calendar(weekday):
    return F.one_hot(weekday, num_classes=7)  # root-cause


class DemandModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.calendar = nn.Linear(7, 4)
        self.weather = nn.Linear(3, 4)
        self.out = nn.Linear(8, 1)

    def forward(self, weekday_1h, weather):
        h = torch.cat([self.calendar(weekday_1h), self.weather(weather)], dim=-1)  # fails-here
        return self.out(torch.relu(h)).squeeze(-1)


def train_one_epoch(model, loader, opt):
    for weekday, weather, count in loader:
        pred = model(encode_calendar(weekday), weather)
        loss = F.mse_loss(pred, count)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


model = DemandModel()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loader = DataLoader(HourlyDemand(), batch_size=24, shuffle=True)
print("loss", train_one_epoch(model, loader, opt))
