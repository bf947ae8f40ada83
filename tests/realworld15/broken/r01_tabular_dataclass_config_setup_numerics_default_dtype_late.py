"""Tabular regression trainer configured by a dataclass; a module-level setup_numerics(cfg) helper that calls torch.set_default_dtype(torch.float64) is only called in main() after build_model(cfg) has created the float32 layers, so the torch.tensor(list) batches are float64
source: https://github.com/pytorch/pytorch/issues/60560
reported-error: confusion about what set_default_dtype affects: it only changes how new floating tensors are created, not existing modules
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 37
root-cause: line 28
expect: DG001
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
    epochs: int = 2
    batch_size: int = 16
    high_precision: bool = True


def setup_numerics(cfg: TrainConfig) -> None:
    torch.manual_seed(0)
    if cfg.high_precision:
        torch.set_default_dtype(torch.float64)  # root-cause


class MLPRegressor(nn.Module):
    def __init__(self, n_features, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)  # fails-here


def build_model(cfg: TrainConfig) -> nn.Module:
    return MLPRegressor(cfg.n_features, cfg.hidden)


def batches(rows, targets, batch_size):
    for i in range(0, len(rows), batch_size):
        yield torch.tensor(rows[i:i + batch_size]), torch.tensor(targets[i:i + batch_size])


def train_one_epoch(model, rows, targets, opt, cfg):
    total = 0.0
    for xb, yb in batches(rows, targets, cfg.batch_size):
        loss = nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total


def main():
    cfg = TrainConfig()
    model = build_model(cfg)
    opt = torch.optim.SGD(model.parameters(), lr=cfg.lr)
    setup_numerics(cfg)
    random.seed(0)
    rows = [[random.gauss(0, 1) for _ in range(cfg.n_features)] for _ in range(64)]
    targets = [sum(r) * 0.5 for r in rows]
    for epoch in range(cfg.epochs):
        print("epoch", epoch, "loss", train_one_epoch(model, rows, targets, opt, cfg))


main()
