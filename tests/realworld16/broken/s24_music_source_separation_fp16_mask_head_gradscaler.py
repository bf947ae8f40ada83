"""Music source-separation trainer with mixed precision: build_model(cfg) keeps the encoder in float32 but creates the mask-estimation head in float16 "to match the fp16 activations", and the Solver runs torch.autocast("cpu", dtype=torch.float16) with a GradScaler; unscale_() before gradient clipping meets float16 gradients
source: https://github.com/starrytong/SCNet/issues/7
reported-error: mixed-precision (FP16) training fails in self.scaler.step(self.optimizer)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 41
root-cause: line 18
expect: DG014
"""
from types import SimpleNamespace

import torch
import torch.nn as nn


class Separator(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(2, cfg.channels, 5, padding=2), nn.GELU())
        self.mask_head = nn.Conv1d(cfg.channels, 2 * cfg.sources, 1, dtype=torch.float16)  # root-cause

    def forward(self, mix):
        h = self.encoder(mix)
        return torch.sigmoid(self.mask_head(h.to(self.mask_head.weight.dtype)))


def build_model(cfg):
    return Separator(cfg)


class Solver:
    def __init__(self, model, cfg):
        self.model, self.cfg = model, cfg
        self.optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
        self.scaler = torch.amp.GradScaler("cpu")

    def _run_one_step(self, mix, target):
        with torch.autocast("cpu", dtype=torch.float16):
            masks = self.model(mix)
            loss = (masks.float() - target).abs().mean()
        self.optimizer.zero_grad()
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.optimizer)  # fails-here
        nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.clip)
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.item()


cfg = SimpleNamespace(channels=16, sources=2, lr=5e-4, clip=5.0)
solver = Solver(build_model(cfg), cfg)
mix = torch.randn(4, 2, 256)
target = torch.rand(4, 4, 256)
print("loss", solver._run_one_step(mix, target))
