import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_targets(x):
    # NumPy math on a float32 array with a float64 array: the result is float64.
    noise = np.random.default_rng(0).normal(scale=0.05, size=(x.shape[0], 1))
    return torch.from_numpy(x[:, :1] * 2 + noise)  # expect: DG008


x_np = np.random.default_rng(1).uniform(size=(64, 3)).astype(np.float32)
x, y = torch.from_numpy(x_np), make_targets(x_np)

model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(10):
    opt.zero_grad()
    pred = model(x)
    loss = F.l1_loss(pred, y)
    loss.backward()
    opt.step()
