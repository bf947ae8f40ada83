"""Point-feature regressor whose dataclass config carries dtype="float64" on purpose: the same getattr(torch, cfg.dtype) is applied to the model (.to(dtype)) right after construction and to the memmap-loaded features, so everything runs in double
source: https://github.com/alvinliu0/HumanGaussian/issues/18
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn


@dataclass
class Config:
    n_points: int = 128
    feat_dim: int = 12
    dtype: str = "float64"

    @property
    def torch_dtype(self):
        return getattr(torch, self.dtype)


def load_points(cfg, path):
    mm = np.memmap(path, dtype=np.float32, mode="r", shape=(cfg.n_points, cfg.feat_dim))
    return torch.as_tensor(np.array(mm), dtype=cfg.torch_dtype)


def get_model(cfg):
    return nn.Sequential(nn.Linear(cfg.feat_dim, 32), nn.ReLU(), nn.Linear(32, 1)).to(cfg.torch_dtype)


cfg = Config()
path = os.path.join(tempfile.mkdtemp(), "points.f32")
mm = np.memmap(path, dtype=np.float32, mode="w+", shape=(cfg.n_points, cfg.feat_dim))
mm[:] = np.random.default_rng(0).normal(size=mm.shape)
mm.flush()
feats = load_points(cfg, path)
model = get_model(cfg)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
target = torch.rand(cfg.n_points, 1, dtype=cfg.torch_dtype)
for step in range(3):
    loss = nn.functional.binary_cross_entropy(torch.sigmoid(model(feats)), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", round(loss.item(), 4), loss.dtype)
