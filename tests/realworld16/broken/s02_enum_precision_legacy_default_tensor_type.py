"""Tabular trainer whose Precision Enum maps to legacy tensor-type names; setup_env(cfg) passes cfg.precision.value to torch.set_default_tensor_type, which on torch 2.x only emits a deprecation warning (the default stays float32)
source: https://www.codegenes.net/blog/default-pytorch-tensor-typoe
reported-error: none (the page recommends torch.set_default_tensor_type(torch.DoubleTensor) to change the default type)
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 24
expect: DG002
"""
import enum
from types import SimpleNamespace

import numpy as np
import torch
import torch.nn as nn


class Precision(enum.Enum):
    SINGLE = "torch.FloatTensor"
    DOUBLE = "torch.DoubleTensor"


def setup_env(cfg):
    np.random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)
    torch.set_default_tensor_type(cfg.precision.value)  # root-cause


def get_model(cfg):
    return nn.Sequential(nn.Linear(cfg.n_features, 16), nn.ReLU(), nn.Linear(16, 1))


def fit(cfg):
    setup_env(cfg)
    model = get_model(cfg)
    opt = torch.optim.SGD(model.parameters(), lr=cfg.lr)
    x = torch.randn(64, cfg.n_features)
    y = x.sum(dim=1, keepdim=True)
    for _ in range(cfg.steps):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


cfg = SimpleNamespace(seed=0, precision=Precision.SINGLE, n_features=8, lr=0.05, steps=10)
print("final loss", round(fit(cfg), 4), "default dtype", torch.get_default_dtype())
