"""Float64 model trained on float64 NumPy data; the optimizer is built after the cast."""
import numpy as np
import torch
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset


def load():
    rng = np.random.RandomState(42)
    X = rng.randn(200, 6)
    w = rng.randn(6, 1)
    return X, X @ w


X, y = load()
loader = DataLoader(TensorDataset(torch.from_numpy(X), torch.from_numpy(y)), batch_size=40, shuffle=True)
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1)).double()
opt = optim.Adam(model.parameters(), lr=5e-3)

for epoch in range(3):
    for i, (xb, yb) in enumerate(loader):
        loss = nn.functional.l1_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "l1", round(loss.item(), 4))
