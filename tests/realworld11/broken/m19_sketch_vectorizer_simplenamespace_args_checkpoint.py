"""Sketch-vectorization model whose training script stores its parsed options as a types.SimpleNamespace inside the checkpoint; the inference loader later reads it with torch.load's default weights_only=True and the unpickler rejects the namespace
source: https://github.com/CISLab-HKUST/SketchKit/pull/90
reported-error: _pickle.UnpicklingError: Weights only load failed ... Unsupported global: GLOBAL types.SimpleNamespace was not an allowed global by default
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL types.SimpleNamespace was not an allowed global by default. ... at line 46
root-cause: line 42
expect: DG011
"""
import os
import tempfile
from types import SimpleNamespace

import torch
import torch.nn as nn


def parse_options(argv):
    opts = SimpleNamespace(strokes=4, points=8, hidden=32, lr=1e-3)
    for item in argv:
        key, value = item.split("=")
        setattr(opts, key, type(getattr(opts, key))(value))
    return opts


class StrokeDecoder(nn.Module):
    def __init__(self, opts):
        super().__init__()
        self.strokes, self.points = opts.strokes, opts.points
        self.net = nn.Sequential(nn.Linear(64, opts.hidden), nn.ReLU(), nn.Linear(opts.hidden, opts.strokes * opts.points * 2))

    def forward(self, raster):
        return torch.sigmoid(self.net(raster.flatten(1))).view(-1, self.strokes, self.points, 2)


def train_and_save(path, opts):
    model = StrokeDecoder(opts)
    opt = torch.optim.Adam(model.parameters(), lr=opts.lr)
    raster = torch.rand(4, 8, 8)
    loss = model(raster).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    torch.save({"state_dict": model.state_dict(), "opts": opts}, path)  # root-cause


def load_for_inference(path):
    ckpt = torch.load(path, map_location="cpu")  # fails-here
    model = StrokeDecoder(ckpt["opts"])
    model.load_state_dict(ckpt["state_dict"])
    return model.eval()


if __name__ == "__main__":
    path = os.path.join(tempfile.mkdtemp(), "deepvec.pth")
    train_and_save(path, parse_options(["hidden=48"]))
    model = load_for_inference(path)
    print(model(torch.rand(1, 8, 8)).shape)
