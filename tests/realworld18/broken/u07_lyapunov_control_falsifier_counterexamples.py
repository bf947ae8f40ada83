"""Neural Lyapunov control loop: the falsifier returns counterexample states as NumPy float64 arrays which add_counterexamples() concatenates onto the float32 training states with np.vstack; the next learning round feeds float64 states to the float32 Lyapunov network
source: https://github.com/YaChienChang/Neural-Lyapunov-Control/issues/4
reported-error: RuntimeError: expected scalar type Float but found Double (in V_candidate, u = model(x) after the first falsification round)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 20
root-cause: line 36
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


class LyapunovNet(nn.Module):
    def __init__(self, n_in=2, hidden=6):
        super().__init__()
        self.V = nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, 1), nn.Tanh())
        self.control = nn.Linear(n_in, 1, bias=False)

    def forward(self, x):
        return self.V(x), self.control(x)  # fails-here


def f_value(x, u, g=9.81, l=0.5, m=0.15, b=0.1):
    theta, omega = x[:, 0], x[:, 1]
    dtheta = omega
    domega = (m * g * l * torch.sin(theta) + u[:, 0] - b * omega) / (m * l ** 2)
    return torch.stack([dtheta, domega], 1)


def falsify(model, rng, n=20):
    # stand-in for the dReal check: random states near the boundary of the region
    return rng.uniform(-6.0, 6.0, size=(n, 2))


def add_counterexamples(x_np, cex):
    return np.vstack([x_np, cex])  # root-cause


rng = np.random.default_rng(0)
x_np = rng.uniform(-6, 6, size=(500, 2)).astype(np.float32)
model = LyapunovNet()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for rnd in range(3):
    x = torch.from_numpy(x_np).requires_grad_(True)
    x_0 = torch.zeros(1, 2)
    for it in range(20):
        V, u = model(x)
        V0, _ = model(x_0)
        grad_V = torch.autograd.grad(V.sum(), x, create_graph=True)[0]
        lie = (grad_V * f_value(x, u)).sum(1)
        risk = torch.relu(-V).mean() + torch.relu(0.1 + lie).mean() + V0.pow(2).sum()
        opt.zero_grad()
        risk.backward()
        opt.step()
    print("round", rnd, "Lyapunov risk", round(risk.item(), 4))
    x_np = add_counterexamples(x_np, falsify(model, rng))
