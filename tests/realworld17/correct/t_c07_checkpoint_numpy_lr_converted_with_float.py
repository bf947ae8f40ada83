"""CLIP-style run whose save_checkpoint() converts the NumPy cosine-schedule learning rate with float() before torch.save, so the default weights_only=True torch.load reads the file back
source: https://github.com/mlfoundations/open_clip/issues/1078
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


def cosine_lr(step, total, base_lr=1e-3):
    return base_lr * 0.5 * (1 + np.cos(np.pi * step / total))


model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 32))
path = os.path.join(tempfile.mkdtemp(), "clip_step5.pt")
torch.save({"state_dict": model.state_dict(), "samples_seen": 5 * 8, "lr": float(cosine_lr(5, 100)),
            "history": {"loss": [2.1, 1.9]}}, path)
ckpt = torch.load(path, map_location="cpu")
model.load_state_dict(ckpt["state_dict"])
print("resumed at lr", ckpt["lr"], "samples", ckpt["samples_seen"])
