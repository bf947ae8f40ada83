"""Click-through prediction; labels are left as float64 from NumPy, which
BCEWithLogitsLoss accepts (it promotes and backprops fine)."""
import numpy as onp
import torch
import torch.nn as nn


def make_data(n=256, d=12, seed=7):
    rng = onp.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(onp.float32)
    clicks = (rng.random(n) < 1 / (1 + onp.exp(-X[:, 0]))).astype(onp.float64)
    return torch.from_numpy(X), torch.from_numpy(clicks).unsqueeze(1)


X, y = make_data()
model = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 1))
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(10):
    perm = torch.randperm(len(X))
    for i in range(0, len(X), 64):
        idx = perm[i:i + 64]
        loss = criterion(model(X[idx]), y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
print("final loss", loss.item())
