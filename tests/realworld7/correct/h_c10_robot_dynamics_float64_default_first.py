"""Learned residual dynamics in double precision on purpose: torch.set_default_dtype(torch.float64) is the first statement, before the residual MLP and the joint states exist
source: https://github.com/gbionics/adam/issues/118
reported-error: none (consistent float64 version)
outcome: ok
root-cause: -
expect: none
"""
import math

import torch

torch.set_default_dtype(torch.float64)

residual = torch.nn.Sequential(torch.nn.Linear(12, 64), torch.nn.Tanh(), torch.nn.Linear(64, 6))
optimizer = torch.optim.Adam(residual.parameters(), lr=1e-3)
t = torch.linspace(0, 2 * math.pi, 128)
q = torch.stack([torch.sin(t + k) for k in range(6)], dim=-1)
dq = torch.stack([torch.cos(t + k) for k in range(6)], dim=-1)
masses = torch.tensor([2.0, 1.5, 1.0, 0.5, 0.3, 0.1])
tau = masses * 9.81 * torch.cos(q) + 0.05 * torch.sin(3 * q)
for epoch in range(3):
    pred = masses * 9.81 * torch.cos(q) + residual(torch.cat([q, dq], dim=-1))
    loss = (pred - tau).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.dtype, f"{loss.item():.6f}")
