"""Bike-demand forecaster whose calendar encoder converts F.one_hot(weekday, 7) with .to(torch.float32) inside encode_calendar() before the nn.Linear branch
source: https://github.com/kevinzakka/pytorch-goodies/issues/12
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def encode_calendar(weekday, dtype=torch.float32):
    return F.one_hot(weekday, num_classes=7).to(dtype)


class DemandModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.calendar, self.weather, self.out = nn.Linear(7, 4), nn.Linear(3, 4), nn.Linear(8, 1)

    def forward(self, weekday_1h, weather):
        return self.out(torch.relu(torch.cat([self.calendar(weekday_1h), self.weather(weather)], -1))).squeeze(-1)


rng = np.random.default_rng(0)
weekday = torch.from_numpy(np.arange(168) // 24 % 7)
weather = torch.from_numpy(rng.normal(size=(168, 3)).astype(np.float32))
count = (50 + 10 * (weekday < 5).float() + torch.randn(168))
model = DemandModel()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for wd, we, c in DataLoader(TensorDataset(weekday, weather, count), batch_size=24, shuffle=True):
    loss = F.mse_loss(model(encode_calendar(wd), we), c)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
