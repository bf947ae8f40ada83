"""Flow-matching density model that runs in double precision on purpose: enable_exact_likelihood() (torch.set_default_dtype(torch.float64)) is the first call of main(), before the data, the velocity MLP and its optimizer exist
source: https://github.com/facebookresearch/flow_matching/issues/37
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import math

import numpy as np
import torch
import torch.nn as nn


# ---- utils/precision.py
def enable_exact_likelihood():
    """The divergence estimate is noisy in single precision."""
    torch.set_default_dtype(torch.float64)


# ---- models/velocity.py
class VelocityMLP(nn.Module):
    def __init__(self, dim=2, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, dim))

    def forward(self, x, t):
        t = t.expand(x.shape[0], 1)
        return self.net(torch.cat([x, t], dim=1))


def two_moons(n, rng):
    a = rng.uniform(0, math.pi, n // 2)
    b = rng.uniform(0, math.pi, n - n // 2)
    up = np.stack([np.cos(a), np.sin(a)], 1)
    down = np.stack([1 - np.cos(b), 0.5 - np.sin(b)], 1)
    return np.concatenate([up, down]).astype(np.float32)


def train(model, data, steps=60, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for _ in range(steps):
        x1 = data[torch.randint(0, len(data), (128,))]
        x0 = torch.randn_like(x1)
        t = torch.rand(x1.shape[0], 1)
        xt = (1 - t) * x0 + t * x1
        loss = ((model.net(torch.cat([xt, t], 1)) - (x1 - x0)) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


@torch.no_grad()
def log_likelihood(model, n=256, steps=20):
    x = torch.randn(n, 2)
    logp = -0.5 * (x ** 2).sum(1) - math.log(2 * math.pi)
    dt = 1.0 / steps
    for k in range(steps):
        t = torch.full((1, 1), k * dt)
        x = x + dt * model(x, t)
    return logp.mean().item()


def evaluate(model):
    return log_likelihood(model)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=60)
    args = parser.parse_args([])
    enable_exact_likelihood()
    rng = np.random.default_rng(0)
    data = torch.from_numpy(two_moons(2048, rng)).to(torch.get_default_dtype())
    model = VelocityMLP()
    print("param dtype", next(model.parameters()).dtype)
    print("final fm loss", round(train(model, data, args.steps), 4))
    print("log-likelihood", evaluate(model))


if __name__ == "__main__":
    main()
