"""Voice-conversion training CLI with an EarlyStopping helper that keeps best = np.mean(val_losses) (a np.float64); save_ckpt() writes that value into the checkpoint as best_val, and the resume path's torch.load(..., map_location="cpu") with weights_only=True rejects the NumPy scalar
source: https://github.com/diodiogod/TTS-Audio-Suite/issues/288
reported-error: resume fails: the resume path in training_cli.py doesn't pass weights_only=False
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 34
root-cause: line 21
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


class EarlyStopping:
    def __init__(self, patience=3):
        self.patience, self.bad, self.best = patience, 0, None

    def update(self, val_losses):
        score = np.mean(val_losses)  # root-cause
        if self.best is None or score < self.best:
            self.best, self.bad = score, 0
            return True
        self.bad += 1
        return False


def save_ckpt(path, model, opt, epoch, best_val):
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": epoch, "best_val": best_val}, path)


def load_ckpt(path, model, opt):
    ckpt = torch.load(path, map_location="cpu")  # fails-here
    model.load_state_dict(ckpt["model"])
    opt.load_state_dict(ckpt["optimizer"])
    return ckpt["epoch"], ckpt["best_val"]


@torch.no_grad()
def validate(model, batches):
    return [nn.functional.l1_loss(model(x), x).item() for x in batches]


model = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.Tanh(), nn.Conv1d(8, 1, 5, padding=2))
opt = torch.optim.AdamW(model.parameters(), lr=2e-4)
stopper = EarlyStopping()
out_dir = tempfile.mkdtemp()
val_batches = [torch.randn(4, 1, 64) for _ in range(3)]
for epoch in range(2):
    x = torch.randn(4, 1, 64)
    loss = nn.functional.l1_loss(model(x), x)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if stopper.update(validate(model, val_batches)):
        save_ckpt(os.path.join(out_dir, "G_best.pth"), model, opt, epoch, stopper.best)
epoch, best = load_ckpt(os.path.join(out_dir, "G_best.pth"), model, opt)
print("resume from epoch", epoch + 1, "best", best)
