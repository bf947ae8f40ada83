"""Few-shot sine-regression meta-learner (MAML-style, with Adam as the inner optimizer) that differentiates through the inner Adam steps: the experiment config turns on differentiable=True for that, but the shared optimizer builder also forwards foreach=True from the speed settings, and the multi-tensor Adam path does not support autograd
source: https://github.com/pytorch/pytorch/pull/82205
reported-error: review of "Make Adam optimizer differentiable": the foreach ops don't support autograd, so the multi-tensor implementation asserts that differentiable is False
outcome: AssertionError: _foreach ops don't support autograd at line 58
root-cause: line 18
expect: DG016
"""
import math
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class SpeedConfig:
    foreach: bool = True  # root-cause
    num_workers: int = 0


@dataclass
class MetaConfig:
    inner_steps: int = 2
    meta_lr: float = 1e-2
    inner_lr: float = 1e-2
    differentiable: bool = True
    speed: SpeedConfig = field(default_factory=SpeedConfig)


# ---- optim_factory.py
def build_inner_optimizer(params, lr, cfg):
    return torch.optim.Adam(params, lr=lr, differentiable=cfg.differentiable, foreach=cfg.speed.foreach)


# ---- tasks.py
def sample_sine_task(g, k=10):
    amp, phase = 0.1 + 4.9 * torch.rand(1, generator=g), math.pi * torch.rand(1, generator=g)
    x = torch.rand(2 * k, 1, generator=g) * 10 - 5
    y = amp * torch.sin(x + phase)
    return (x[:k], y[:k]), (x[k:], y[k:])


# ---- meta_train.py
def functional_forward(weights, x):
    return F.linear(torch.tanh(F.linear(x, weights[0], weights[1])), weights[2], weights[3])


def inner_adapt(model, support, cfg):
    fast = [p.clone() for p in model.parameters()]
    optimizer = build_inner_optimizer(fast, cfg.inner_lr, cfg)
    for _ in range(cfg.inner_steps):
        snapshot = [p.clone() for p in fast]
        loss = F.mse_loss(functional_forward(snapshot, support[0]), support[1])
        grads = torch.autograd.grad(loss, snapshot, create_graph=True)
        for p, g in zip(fast, grads):
            p.grad = g
        optimizer.step()  # fails-here
    return fast


def meta_train(cfg, iterations=3):
    g = torch.Generator().manual_seed(0)
    model = nn.Sequential(nn.Linear(1, 40), nn.Tanh(), nn.Linear(40, 1))
    meta_opt = torch.optim.Adam(model.parameters(), lr=cfg.meta_lr)
    for it in range(iterations):
        support, query = sample_sine_task(g)
        fast = inner_adapt(model, support, cfg)
        meta_loss = F.mse_loss(functional_forward(fast, query[0]), query[1])
        meta_opt.zero_grad()
        meta_loss.backward()
        meta_opt.step()
        print("iteration", it, "meta loss", round(meta_loss.item(), 4))


if __name__ == "__main__":
    torch.manual_seed(0)
    meta_train(MetaConfig())
