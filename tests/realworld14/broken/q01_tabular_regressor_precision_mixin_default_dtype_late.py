"""Tabular house-price regressor built by a classmethod factory Regressor.from_config(cfg); a PrecisionMixin.apply_precision() hook called by the trainer afterwards sets torch.set_default_dtype(torch.float64), so the batches made with torch.tensor(list_of_floats) are float64 while the already-built Linear weights stay float32
source: https://github.com/keras-team/keras/issues/7951
reported-error: dtype mismatch because the default float type is read when the layer is constructed, not when it is used (Keras floatx set after import)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 30
root-cause: line 17
expect: DG001
"""
import random

import torch
import torch.nn as nn


class PrecisionMixin:
    def apply_precision(self, cfg):
        if cfg.get("precision") == "double":
            torch.set_default_dtype(torch.float64)  # root-cause


class Regressor(nn.Module):
    def __init__(self, n_features, hidden):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    @classmethod
    def from_config(cls, cfg):
        return cls(cfg["n_features"], cfg["hidden"])

    def forward(self, x):
        return self.body(x).squeeze(-1)  # fails-here


class BaseTrainer:
    def __init__(self, model, cfg):
        self.model, self.cfg = model, cfg
        self.opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"])

    def on_start(self):
        pass

    def fit(self, rows, targets):
        self.on_start()
        for epoch in range(self.cfg["epochs"]):
            x = torch.tensor(rows)
            y = torch.tensor(targets)
            loss = nn.functional.mse_loss(self.model(x), y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
        return loss.item()


class PriceTrainer(PrecisionMixin, BaseTrainer):
    def on_start(self):
        self.apply_precision(self.cfg)


random.seed(0)
cfg = {"n_features": 4, "hidden": 16, "lr": 1e-2, "epochs": 3, "precision": "double"}
rows = [[random.random() for _ in range(4)] for _ in range(32)]
targets = [sum(r) for r in rows]
trainer = PriceTrainer(Regressor.from_config(cfg), cfg)
print("final loss", trainer.fit(rows, targets))
