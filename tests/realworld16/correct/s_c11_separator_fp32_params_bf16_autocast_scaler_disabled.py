"""Source-separation Solver that keeps every parameter in float32, runs the forward under torch.autocast("cpu", dtype=cfg.amp_dtype) with amp_dtype bfloat16, and constructs its GradScaler with enabled=(cfg.amp_dtype == torch.float16), so scale/unscale_/step pass through
source: https://github.com/starrytong/SCNet/issues/7
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
from types import SimpleNamespace

import torch
import torch.nn as nn


class Separator(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(2, cfg.channels, 5, padding=2), nn.GELU())
        self.mask_head = nn.Conv1d(cfg.channels, 2 * cfg.sources, 1)

    def forward(self, mix):
        return torch.sigmoid(self.mask_head(self.encoder(mix)))


class Solver:
    def __init__(self, model, cfg):
        self.model, self.cfg = model, cfg
        self.optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
        self.scaler = torch.amp.GradScaler("cpu", enabled=(cfg.amp_dtype == torch.float16))

    def step(self, mix, target):
        with torch.autocast("cpu", dtype=self.cfg.amp_dtype):
            loss = (self.model(mix).float() - target).abs().mean()
        self.optimizer.zero_grad()
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.optimizer)
        nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.clip)
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.item()


cfg = SimpleNamespace(channels=16, sources=2, lr=5e-4, clip=5.0, amp_dtype=torch.bfloat16)
solver = Solver(Separator(cfg), cfg)
print("loss", solver.step(torch.randn(4, 2, 256), torch.rand(4, 4, 256)))
