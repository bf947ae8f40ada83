"""A NumPy preprocessing pipeline that casts to float32 once, where data enters PyTorch."""
import numpy as np
import torch
from torch import nn


def load_table(n=400, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(loc=5.0, scale=2.0, size=(n, 8))  # float64, as NumPy makes it
    y = (X[:, 0] - X[:, 1] > 0).astype(np.float32)
    return X, y


def standardize(X):
    mean, std = X.mean(axis=0), X.std(axis=0) + 1e-8
    return ((X - mean) / std).astype(np.float32)


X, y = load_table()
features = torch.as_tensor(standardize(X), dtype=torch.float32)
targets = torch.from_numpy(y).unsqueeze(1)

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(20):
    optimizer.zero_grad()
    loss = criterion(model(features), targets)
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
