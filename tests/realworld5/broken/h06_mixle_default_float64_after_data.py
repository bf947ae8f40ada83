"""Surrogate distillation: the training tensors are built in float32, then the scenario setup switches the global default dtype to float64 before the student MLP is constructed
source: https://github.com/gmboquet/mixle/pull/509
reported-error: RuntimeError: mat1 and mat2 must have the same dtype, but got Float and Double
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Float and Double at line 33
root-cause: line 24
expect: DG001
"""
import math

import numpy as np
import torch
import torch.nn as nn


def sample_forward_model(n=128, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, size=(n, 3))
    y = np.sin(math.pi * x[:, :1]) + x[:, 1:2] * x[:, 2:3]
    return x, y


def setup_capabilities():
    # PDE solver settings: high precision for the reference solves
    torch.set_default_dtype(torch.float64)  # root-cause
    return {"tol": 1e-10, "max_iter": 50}


def _fit_reg_mlp(xt, yt, hidden=32, steps=20, lr=1e-2):
    net = nn.Sequential(nn.Linear(xt.shape[1], hidden), nn.Tanh(), nn.Linear(hidden, yt.shape[1]))
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    for step in range(steps):
        opt.zero_grad()
        loss = ((net(xt) - yt) ** 2).mean()  # fails-here
        loss.backward()
        opt.step()
    return net, loss.item()


def _fit_scaled(x, y):
    mu, sd = x.mean(0), x.std(0) + 1e-12
    xt = torch.as_tensor((x - mu) / sd, dtype=torch.float32)
    yt = torch.as_tensor(y, dtype=torch.float32)
    return xt, yt


def distill_forward(x, y):
    xt, yt = _fit_scaled(x, y)
    caps = setup_capabilities()
    print("solver caps", caps)
    return _fit_reg_mlp(xt, yt)


if __name__ == "__main__":
    x, y = sample_forward_model()
    net, final = distill_forward(x, y)
    print("final loss", final)
