"""Tabular regression in double precision on purpose: setup_numerics(cfg) sets torch.set_default_dtype(torch.float64) at the start of main(), before build_model(cfg) creates the layers, so parameters and torch.tensor(list) batches are both float64
source: https://github.com/pytorch/pytorch/issues/60560
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import random
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class TrainConfig:
    n_features: int = 6
    hidden: int = 32
    lr: float = 1e-2
    high_precision: bool = True


def setup_numerics(cfg):
    torch.manual_seed(0)
    if cfg.high_precision:
        torch.set_default_dtype(torch.float64)


def build_model(cfg):
    return nn.Sequential(nn.Linear(cfg.n_features, cfg.hidden), nn.Tanh(), nn.Linear(cfg.hidden, 1))


def main():
    cfg = TrainConfig()
    setup_numerics(cfg)
    model = build_model(cfg)
    opt = torch.optim.SGD(model.parameters(), lr=cfg.lr)
    random.seed(0)
    rows = [[random.gauss(0, 1) for _ in range(cfg.n_features)] for _ in range(64)]
    x, y = torch.tensor(rows), torch.tensor([sum(r) for r in rows])
    for _ in range(5):
        loss = nn.functional.mse_loss(model(x).squeeze(-1), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("loss", loss.item(), "param dtype", next(model.parameters()).dtype)


main()
