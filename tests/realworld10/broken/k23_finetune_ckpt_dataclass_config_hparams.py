"""Fine-tuning run in a Lightning-like layout: the checkpoint's "hyper_parameters" entry is the run's ModelConfig dataclass instance itself, so reloading the best checkpoint for inference with torch.load (weights_only=True by default) fails on the class
source: https://github.com/GET-Foundation/get_model/issues/23
reported-error: UnpicklingError: Weights only load failed ... WeightsUnpickler error: Unsupported global ... was not an allowed global by default (loading the best checkpoint after trainer = run(cfg))
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.ModelConfig was not an allowed global by default. ... at line 49
root-cause: line 44
expect: DG011
"""
import os
import tempfile
from dataclasses import dataclass, field

import torch
import torch.nn as nn


@dataclass
class ModelConfig:
    n_peaks: int = 32
    hidden: int = 64
    n_out: int = 1
    lr: float = 1e-3
    tags: list = field(default_factory=lambda: ["pbmc", "finetune"])


class RegionModel(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(cfg.n_peaks, cfg.hidden), nn.GELU(), nn.Linear(cfg.hidden, cfg.n_out))

    def forward(self, x):
        return self.net(x)


def run(cfg, out_dir, steps=5):
    model = RegionModel(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    x, y = torch.randn(128, cfg.n_peaks), torch.randn(128, 1)
    for _ in range(steps):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    best_model_path = os.path.join(out_dir, "best-epoch=0.ckpt")
    torch.save({"state_dict": model.state_dict(), "hyper_parameters": cfg, "epoch": 0}, best_model_path)  # root-cause
    return best_model_path


def load_for_inference(path):
    ckpt = torch.load(path, map_location="cpu")  # fails-here
    model = RegionModel(ckpt["hyper_parameters"])
    model.load_state_dict(ckpt["state_dict"])
    return model.eval()


path = run(ModelConfig(), tempfile.mkdtemp())
print("checkpoint path:", path)
model = load_for_inference(path)
print(model(torch.randn(2, 32)))
