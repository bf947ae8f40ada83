"""Gaussian-avatar point-feature regressor whose dataclass config keeps data_dtype="float64" (inherited from a preprocessing script); load_points() reads an np.memmap of float32 features and converts it with torch.as_tensor(..., dtype=getattr(torch, cfg.data_dtype)), so float64 points reach the float32 MLP
source: https://github.com/alvinliu0/HumanGaussian/issues/18
reported-error: RuntimeError: expected scalar type Float but found Double
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 44
root-cause: line 35
expect: DG004
"""
import os
import tempfile
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn


@dataclass
class Config:
    n_points: int = 256
    feat_dim: int = 12
    hidden: int = 64
    data_dtype: str = "float64"
    lr: float = 1e-3
    steps: int = 3


def write_cache(cfg, path):
    mm = np.memmap(path, dtype=np.float32, mode="w+", shape=(cfg.n_points, cfg.feat_dim))
    mm[:] = np.random.default_rng(0).normal(size=mm.shape)
    mm.flush()


def load_points(cfg, path):
    mm = np.memmap(path, dtype=np.float32, mode="r", shape=(cfg.n_points, cfg.feat_dim))
    return torch.as_tensor(np.array(mm), dtype=getattr(torch, cfg.data_dtype))  # root-cause


class OpacityHead(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(cfg.feat_dim, cfg.hidden), nn.ReLU(), nn.Linear(cfg.hidden, 1))

    def forward(self, feats):
        return torch.sigmoid(self.mlp(feats))  # fails-here


def main(cfg):
    path = os.path.join(tempfile.mkdtemp(), "points.f32")
    write_cache(cfg, path)
    feats = load_points(cfg, path)
    head = OpacityHead(cfg)
    opt = torch.optim.Adam(head.parameters(), lr=cfg.lr)
    target = torch.rand(cfg.n_points, 1)
    for step in range(cfg.steps):
        loss = nn.functional.binary_cross_entropy(head(feats), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("step", step, "loss", round(loss.item(), 4))


if __name__ == "__main__":
    main(Config())
