"""Voice-model trainer whose EarlyStopping keeps best = float(np.mean(val_losses)) (a Python float) and whose step counter is an int, so the checkpoint holds only tensors and builtins and the default weights_only load works
source: https://github.com/diodiogod/TTS-Audio-Suite/issues/288
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


class EarlyStopping:
    def __init__(self):
        self.best = None

    def update(self, val_losses):
        score = float(np.mean(val_losses))
        if self.best is None or score < self.best:
            self.best = score
            return True
        return False


@torch.no_grad()
def validate(model, batches):
    return np.array([nn.functional.l1_loss(model(x), x).item() for x in batches])


model = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.Tanh(), nn.Conv1d(8, 1, 5, padding=2))
opt = torch.optim.AdamW(model.parameters(), lr=2e-4)
stopper = EarlyStopping()
path = os.path.join(tempfile.mkdtemp(), "G_best.pth")
val_batches = [torch.randn(4, 1, 64) for _ in range(3)]
for epoch in range(2):
    x = torch.randn(4, 1, 64)
    loss = nn.functional.l1_loss(model(x), x)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if stopper.update(validate(model, val_batches)):
        torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": int(np.int64(epoch)),
                    "best_val": stopper.best}, path)
ckpt = torch.load(path, map_location="cpu")
model.load_state_dict(ckpt["model"])
print("resume from epoch", ckpt["epoch"] + 1, "best", round(ckpt["best_val"], 4))
