"""Regression Dataset whose __getitem__ returns the target as a Python float (row["y"].item()); default_collate turns Python floats into float64 whatever torch.set_default_dtype says, so the MSE loss is silently computed in double
source: https://github.com/pytorch/pytorch/issues/31689
reported-error: DataLoader does not consider default floating point type (default_collate((1.0,)).dtype is torch.float64 after torch.set_default_dtype(torch.float32))
outcome: ok (silent: criterion(pred, y) at line 35 returns a float64 loss because the collated Python-float targets are float64, printed as "loss dtype torch.float64")
root-cause: line 26
expect: DG008
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.set_default_dtype(torch.float32)


class SensorDataset(Dataset):
    def __init__(self, n=200, seed=0):
        rng = np.random.default_rng(seed)
        self.x = rng.normal(size=(n, 6)).astype(np.float32)
        self.y = self.x @ rng.normal(size=6).astype(np.float32)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        return torch.from_numpy(self.x[idx]), self.y[idx].item()  # root-cause


def fit(model, loader, epochs=2):
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        for x, y in loader:
            pred = model(x).squeeze(-1)
            loss = criterion(pred, y)  # fails-here
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}, loss dtype {loss.dtype}")


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
    fit(model, DataLoader(SensorDataset(), batch_size=32, shuffle=True))
