import numpy as np
import torch
import torch.nn as nn


class PhysicsNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 64), nn.Softplus(), nn.Linear(64, 1))

    def forward(self, state):
        return self.body(state)


def simulate(n=128, seed=5):
    rng = np.random.default_rng(seed)
    q = rng.uniform(-1, 1, size=(n, 3))  # float64 on purpose
    energy = 0.5 * (q**2).sum(axis=1, keepdims=True)
    return torch.from_numpy(q), torch.from_numpy(energy)


states, energies = simulate()
net = PhysicsNet().double()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for epoch in range(10):
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(states), energies)
    loss.backward()
    opt.step()
