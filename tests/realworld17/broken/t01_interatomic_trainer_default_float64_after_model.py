"""Interatomic-potential Trainer whose __init__ builds the model first and then applies cfg["default_dtype"] with torch.set_default_dtype(torch.float64); positions built later with torch.tensor(list of floats) are float64 while the model kept float32 weights
source: https://github.com/ACEsuit/mace/pull/306
reported-error: RuntimeError: mat1 and mat2 must have the same dtype (float64 training with torch.set_default_dtype)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 24
root-cause: line 33
expect: DG001
"""
import numpy as np
import torch
import torch.nn as nn


class PairPotential(nn.Module):
    def __init__(self, n_rbf=8, hidden=32):
        super().__init__()
        self.centers = nn.Parameter(torch.linspace(0.5, 5.0, n_rbf), requires_grad=False)
        self.mlp = nn.Sequential(nn.Linear(n_rbf, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, pos):
        d = torch.cdist(pos, pos)
        iu = torch.triu_indices(pos.shape[0], pos.shape[0], offset=1)
        r = d[iu[0], iu[1]].unsqueeze(-1)
        rbf = torch.exp(-((r - self.centers) ** 2))
        return self.mlp(rbf).sum()  # fails-here


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = PairPotential(cfg["n_rbf"], cfg["hidden"])
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg["lr"])
        if cfg["default_dtype"] == "float64":
            torch.set_default_dtype(torch.float64)  # root-cause

    def make_frame(self, rng):
        coords = (rng.random((6, 3)) * 4.0).tolist()
        energy = float(rng.normal())
        return torch.tensor(coords), torch.tensor(energy)

    def fit(self, n_frames=4):
        rng = np.random.default_rng(0)
        for i in range(n_frames):
            pos, e_ref = self.make_frame(rng)
            e = self.model(pos)
            loss = (e - e_ref) ** 2
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            print("frame", i, "loss", float(loss))


cfg = {"n_rbf": 8, "hidden": 32, "lr": 1e-3, "default_dtype": "float64"}
Trainer(cfg).fit()
