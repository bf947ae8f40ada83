"""Sketch-vectorization checkpoint that stores the SimpleNamespace options as vars(opts) (a plain dict of ints and floats) and rebuilds the namespace after a default weights_only=True torch.load
source: https://github.com/CISLab-HKUST/SketchKit/pull/90
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile
from types import SimpleNamespace

import torch
import torch.nn as nn


def build(opts):
    return nn.Sequential(nn.Flatten(), nn.Linear(64, opts.hidden), nn.ReLU(), nn.Linear(opts.hidden, opts.strokes * 2))


if __name__ == "__main__":
    opts = SimpleNamespace(strokes=4, hidden=48, lr=1e-3)
    model = build(opts)
    path = os.path.join(tempfile.mkdtemp(), "deepvec.pth")
    torch.save({"state_dict": model.state_dict(), "opts": vars(opts)}, path)
    ckpt = torch.load(path, map_location="cpu")
    restored = build(SimpleNamespace(**ckpt["opts"]))
    restored.load_state_dict(ckpt["state_dict"])
    print(restored(torch.rand(1, 8, 8)).shape, ckpt["opts"])
