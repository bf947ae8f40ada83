"""Trainer that stores its best validation metric as a Python float, so the checkpoint loads with torch.load's default weights_only=True
source: https://github.com/Comfy-Org/ComfyUI/issues/9655
reported-error: Weights only load failed ... Unsupported global: GLOBAL numpy.core.multiarray.scalar (in the broken version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


class Stage2(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.refine = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))

    def forward(self, x):
        return x + self.refine(x)


def validate(model):
    with torch.no_grad():
        losses = [nn.functional.mse_loss(model(x), x).item() for x in torch.randn(3, 8, 16)]
    return float(np.mean(losses))


def train_and_save(ckpt_dir):
    model = Stage2()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    best, path = float("inf"), os.path.join(ckpt_dir, "stage2.ckpt")
    for epoch in range(3):
        x = torch.randn(32, 16)
        loss = nn.functional.mse_loss(model(x), x)
        opt.zero_grad()
        loss.backward()
        opt.step()
        val = validate(model)
        if val < best:
            best = val
            torch.save({"model": model.state_dict(), "epoch": epoch, "best_val": best}, path)
    return path


if __name__ == "__main__":
    sd = torch.load(train_and_save(tempfile.mkdtemp()), map_location="cpu")
    model = Stage2()
    model.load_state_dict(sd["model"])
    print("loaded epoch", sd["epoch"], "best", sd["best_val"])
