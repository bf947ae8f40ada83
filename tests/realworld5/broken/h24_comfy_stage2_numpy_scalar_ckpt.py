"""Two-stage model trainer that stores the best validation metric (a NumPy float64 from np.mean) in the checkpoint; the loader uses torch.load's default weights_only=True
source: https://github.com/Comfy-Org/ComfyUI/issues/9655
reported-error: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy.core.multiarray.scalar was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 54
root-cause: line 46
expect: DG011
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


def validate(model, n_batches=3):
    losses = []
    with torch.no_grad():
        for _ in range(n_batches):
            x = torch.randn(8, 16)
            losses.append(nn.functional.mse_loss(model(x), x).item())
    return np.mean(losses)  # root-cause-alt


def train_and_save(ckpt_dir):
    model = Stage2()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    best = np.inf
    for epoch in range(3):
        x = torch.randn(32, 16)
        loss = nn.functional.mse_loss(model(x), x)
        opt.zero_grad()
        loss.backward()
        opt.step()
        val = validate(model)
        if val < best:
            best = val  # root-cause
            torch.save({"model": model.state_dict(), "epoch": epoch, "best_val": best},
                       os.path.join(ckpt_dir, "stage2.ckpt"))
    return os.path.join(ckpt_dir, "stage2.ckpt")


class Stage2_load:
    def load(self, path, device="cpu"):
        sd = torch.load(path, map_location=device)  # fails-here
        model = Stage2()
        model.load_state_dict(sd["model"])
        print("loaded epoch", sd["epoch"], "best", float(sd["best_val"]))
        return model


if __name__ == "__main__":
    path = train_and_save(tempfile.mkdtemp())
    Stage2_load().load(path)
