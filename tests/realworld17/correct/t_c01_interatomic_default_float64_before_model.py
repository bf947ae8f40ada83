"""Interatomic-potential Trainer that runs in double precision on purpose: torch.set_default_dtype(torch.float64) is applied by configure_precision() before the model and the optimizer are built, so weights and positions are both float64
source: https://github.com/ACEsuit/mace/pull/306
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn


def configure_precision(cfg):
    torch.set_default_dtype(torch.float64 if cfg["default_dtype"] == "float64" else torch.float32)


class PairPotential(nn.Module):
    def __init__(self, n_rbf=8, hidden=32):
        super().__init__()
        self.centers = nn.Parameter(torch.linspace(0.5, 5.0, n_rbf), requires_grad=False)
        self.mlp = nn.Sequential(nn.Linear(n_rbf, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, pos):
        d = torch.cdist(pos, pos)
        iu = torch.triu_indices(pos.shape[0], pos.shape[0], offset=1)
        r = d[iu[0], iu[1]].unsqueeze(-1)
        return self.mlp(torch.exp(-((r - self.centers) ** 2))).sum()


class Trainer:
    def __init__(self, cfg):
        configure_precision(cfg)
        self.model = PairPotential(cfg["n_rbf"], cfg["hidden"])
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg["lr"])

    def fit(self, n_frames=4):
        rng = np.random.default_rng(0)
        for i in range(n_frames):
            pos = torch.tensor((rng.random((6, 3)) * 4.0).tolist())
            e_ref = torch.tensor(float(rng.normal()))
            loss = (self.model(pos) - e_ref) ** 2
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            print("frame", i, "loss", float(loss), pos.dtype, next(self.model.parameters()).dtype)


Trainer({"n_rbf": 8, "hidden": 32, "lr": 1e-3, "default_dtype": "float64"}).fit()
