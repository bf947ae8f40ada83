"""Pose-conditioned video model whose checkpoint also carries the dataset normalisation statistics as NumPy arrays; loading with the default weights_only=True fails
source: https://github.com/zai-org/SCAIL/issues/11
reported-error: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy.core.multiarray._reconstruct was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 55
root-cause: line 50
expect: DG011
"""
import os
import tempfile
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn


@dataclass
class TrainConfig:
    pose_dim: int = 34
    hidden: int = 64
    steps: int = 5
    out_dir: str = tempfile.mkdtemp()


class PoseEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(cfg.pose_dim, cfg.hidden), nn.SiLU(), nn.Linear(cfg.hidden, cfg.hidden))

    def forward(self, pose):
        return self.net(pose)


def compute_pose_stats(n=256, dim=34):
    poses = np.random.default_rng(0).normal(size=(n, dim)) * 3.0 + 1.0
    return poses, {"mean": poses.mean(0), "std": poses.std(0)}


def train(cfg):
    poses, stats = compute_pose_stats(dim=cfg.pose_dim)
    x = torch.from_numpy(((poses - stats["mean"]) / stats["std"]).astype(np.float32))
    model = PoseEncoder(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for _ in range(cfg.steps):
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    path = os.path.join(cfg.out_dir, "scail_pose.pt")
    torch.save({"module": model.state_dict(), "pose_stats": stats}, path)  # root-cause
    return path


def load_for_inference(path, cfg):
    ckpt = torch.load(path, map_location="cpu")  # fails-here
    model = PoseEncoder(cfg)
    model.load_state_dict(ckpt["module"])
    return model.eval(), ckpt["pose_stats"]


if __name__ == "__main__":
    cfg = TrainConfig()
    model, stats = load_for_inference(train(cfg), cfg)
    print(type(stats["mean"]), sum(p.numel() for p in model.parameters()))
