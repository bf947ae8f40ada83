"""__getitem__ returns a Python float feature; DataLoader's collate hard-codes float64 and the Linear layer refuses it
source: https://github.com/pytorch/pytorch/issues/109968
reported-error: silent (collate_float_fn has torch.float64 hard-coded; the report asks why Python floats come out as float64)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 33
root-cause: line 24
expect: DG004
"""
import math

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class SineDataset(Dataset):
    def __init__(self, n_points: int = 256):
        self.xs = [2 * math.pi * i / n_points for i in range(n_points)]

    def __len__(self):
        return len(self.xs)

    def __getitem__(self, idx):
        x = self.xs[idx]
        return x, math.sin(x)  # root-cause


class Regressor(nn.Module):
    def __init__(self, hidden: int = 32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x.unsqueeze(-1)).squeeze(-1)  # fails-here


def train(epochs: int = 1):
    loader = DataLoader(SineDataset(), batch_size=32, shuffle=True)
    model = Regressor()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.MSELoss()
    for _ in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()


if __name__ == "__main__":
    train()
