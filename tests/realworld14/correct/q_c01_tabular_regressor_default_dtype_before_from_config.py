"""Tabular regressor whose PrecisionMixin sets torch.set_default_dtype(torch.float64) as the first thing, before Regressor.from_config builds the layers, so weights and torch.tensor(list) batches are float64 together; the default is restored at the end
source: https://github.com/keras-team/keras/issues/7951
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import random

import torch
import torch.nn as nn


class PrecisionMixin:
    DTYPES = {"double": torch.float64, "single": torch.float32}

    @classmethod
    def apply_precision(cls, cfg):
        previous = torch.get_default_dtype()
        torch.set_default_dtype(cls.DTYPES[cfg.get("precision", "single")])
        return previous


class Regressor(nn.Module):
    def __init__(self, n_features, hidden):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    @classmethod
    def from_config(cls, cfg):
        return cls(cfg["n_features"], cfg["hidden"])

    def forward(self, x):
        return self.body(x).squeeze(-1)


class PriceTrainer(PrecisionMixin):
    def __init__(self, cfg):
        self.cfg = cfg
        self.previous = self.apply_precision(cfg)
        self.model = Regressor.from_config(cfg)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=cfg["lr"])

    def fit(self, rows, targets):
        try:
            for _epoch in range(self.cfg["epochs"]):
                loss = nn.functional.mse_loss(self.model(torch.tensor(rows)), torch.tensor(targets))
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
            return loss.item(), loss.dtype
        finally:
            torch.set_default_dtype(self.previous)


random.seed(0)
cfg = {"n_features": 4, "hidden": 16, "lr": 1e-2, "epochs": 3, "precision": "double"}
rows = [[random.random() for _ in range(4)] for _ in range(32)]
targets = [sum(r) for r in rows]
print("final loss", PriceTrainer(cfg).fit(rows, targets), "default now", torch.get_default_dtype())
