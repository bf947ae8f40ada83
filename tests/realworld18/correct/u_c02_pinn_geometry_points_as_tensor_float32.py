"""DeepXDE-style PINN whose geometry still produces float64 NumPy point sets, converted where they enter torch with torch.as_tensor(points, dtype=torch.float32)
source: https://github.com/lululxvi/deepxde/pull/2069
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn


# ---- geometry.py
class Rectangle:
    def __init__(self, xmin, xmax):
        self.xmin, self.xmax = np.array(xmin), np.array(xmax)

    def uniform_boundary_points(self, n):
        per_side = n // 4
        s = np.linspace(0.0, 1.0, per_side)
        lo, hi = self.xmin, self.xmax
        bottom = np.stack([lo[0] + s * (hi[0] - lo[0]), np.full(per_side, lo[1])], 1)
        top = np.stack([lo[0] + s * (hi[0] - lo[0]), np.full(per_side, hi[1])], 1)
        left = np.stack([np.full(per_side, lo[0]), lo[1] + s * (hi[1] - lo[1])], 1)
        right = np.stack([np.full(per_side, hi[0]), lo[1] + s * (hi[1] - lo[1])], 1)
        return np.concatenate([bottom, top, left, right])

    def random_points(self, n, rng):
        return (self.xmin + rng.random((n, 2)) * (self.xmax - self.xmin)).astype(np.float32)


# ---- model.py
class FNN(nn.Module):
    def __init__(self, layers=(2, 32, 32, 1)):
        super().__init__()
        mods = []
        for a, b in zip(layers[:-1], layers[1:]):
            mods += [nn.Linear(a, b), nn.Tanh()]
        self.net = nn.Sequential(*mods[:-1])

    def forward(self, x):
        return self.net(x)


def laplace_residual(net, x):
    x = x.requires_grad_(True)
    u = net(x)
    g = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
    u_xx = torch.autograd.grad(g[:, 0].sum(), x, create_graph=True)[0][:, 0]
    u_yy = torch.autograd.grad(g[:, 1].sum(), x, create_graph=True)[0][:, 1]
    return u_xx + u_yy


# ---- train.py
rng = np.random.default_rng(0)
geom = Rectangle([0.0, 0.0], [1.0, 1.0])
x_dom = torch.as_tensor(geom.random_points(256, rng))
x_bc = torch.as_tensor(geom.uniform_boundary_points(64), dtype=torch.float32)
u_bc = torch.zeros(len(x_bc), 1)
net = FNN()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for step in range(5):
    loss_pde = laplace_residual(net, x_dom.clone()).pow(2).mean()
    loss_bc = (net(x_bc) - u_bc).pow(2).mean()
    loss = loss_pde + loss_bc
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
