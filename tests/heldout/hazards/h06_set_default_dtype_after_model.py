"""Physics-informed fit. The author wanted double precision and flipped the
global default, but only after the network was already built."""
import math

import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))

torch.set_default_dtype(torch.float64)  # expect: DG001

t = torch.linspace(0, 2 * math.pi, 128).unsqueeze(1)  # expect: DG004
target = torch.sin(t)

optimizer = torch.optim.LBFGS(net.parameters(), lr=0.5, max_iter=5)


def closure():
    optimizer.zero_grad()
    u = net(t)
    loss = ((u - target) ** 2).mean()
    loss.backward()
    return loss


for it in range(3):
    loss = optimizer.step(closure)
    print(f"iter {it}: {loss.item():.3e}")
