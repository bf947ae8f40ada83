import numpy as onp
from numpy import float32
import torch
import torch.nn as nn

rng = onp.random.default_rng(11)
raw = rng.normal(size=(200, 5))
weights = onp.array([0.3, -1.2, 0.8, 0.0, 2.0])
target = raw @ weights

x = torch.from_numpy(onp.asarray(raw, dtype=float32))
y = torch.from_numpy(target.astype(float32)).reshape(-1, 1)

lin = nn.Linear(5, 1)
opt = torch.optim.SGD(lin.parameters(), lr=0.05)
for _ in range(30):
    opt.zero_grad()
    err = nn.functional.mse_loss(lin(x), y)
    err.backward()
    opt.step()
print("mse", err.item())
