"""Regression Dataset that still returns the target as a Python float, but the DataLoader gets a collate_fn that builds the target batch with dtype=torch.get_default_dtype(), so the MSE loss stays float32
source: https://github.com/pytorch/pytorch/issues/31689
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class SensorDataset(Dataset):
    def __init__(self, n=200, seed=0):
        rng = np.random.default_rng(seed)
        self.x = rng.normal(size=(n, 6)).astype(np.float32)
        self.y = self.x @ rng.normal(size=6).astype(np.float32)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        return torch.from_numpy(self.x[idx]), self.y[idx].item()


def collate_default_dtype(batch):
    xs, ys = zip(*batch)
    return torch.stack(xs), torch.tensor(ys, dtype=torch.get_default_dtype())


model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(2):
    for x, y in DataLoader(SensorDataset(), batch_size=32, shuffle=True, collate_fn=collate_default_dtype):
        loss = criterion(model(x).squeeze(-1), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}, loss dtype {loss.dtype}")
