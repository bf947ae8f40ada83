"""Flow-matching sampler for a music latent model whose timestep schedule is built with np.linspace and wrapped by torch.from_numpy in a schedule helper; each float64 timestep goes through a sinusoidal embedding into the float32 time-embedding MLP
source: https://github.com/xiaomi-research/diffrhythm2/issues/5
reported-error: RuntimeError: mat1 and mat2 must have the same dtype (raised in t = self.time_embed(time) of the transformer)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 29
root-cause: line 44
expect: DG004
"""
import math

import numpy as np
import torch
import torch.nn as nn


def sinusoidal(t, dim=16):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=t.dtype) / half)
    args = t[:, None] * freqs[None]
    return torch.cat([args.sin(), args.cos()], dim=-1)


class TimeEmbed(nn.Module):
    def __init__(self, dim=16, hidden=32):
        super().__init__()
        self.linear_1 = nn.Linear(dim, hidden)
        self.linear_2 = nn.Linear(hidden, hidden)

    def forward(self, t):
        return self.linear_2(torch.nn.functional.silu(self.linear_1(sinusoidal(t))))  # fails-here


class Velocity(nn.Module):
    def __init__(self, latent=8, hidden=32):
        super().__init__()
        self.time_embed = TimeEmbed(hidden=hidden)
        self.proj_in = nn.Linear(latent, hidden)
        self.proj_out = nn.Linear(hidden, latent)

    def forward(self, x, t):
        return self.proj_out(torch.tanh(self.proj_in(x) + self.time_embed(t)))


def make_schedule(steps):
    return torch.from_numpy(np.linspace(0.0, 1.0, steps + 1))  # root-cause


@torch.no_grad()
def sample(model, n=4, latent=8, steps=8):
    x = torch.randn(n, latent)
    ts = make_schedule(steps)
    for i in range(steps):
        t = ts[i].expand(n)
        x = x + (ts[i + 1] - ts[i]).float() * model(x, t)
    return x


if __name__ == "__main__":
    torch.manual_seed(0)
    print(sample(Velocity()).shape)
