"""Noise2Void denoising of microscopy tiles with a CAREamist-like wrapper: the training checkpoint embeds the experiment configuration, whose work_dir is kept as a pathlib.Path, and rebuilding the CAREamist from that checkpoint with torch.load (weights_only=True by default since PyTorch 2.6) fails on the Path object
source: https://github.com/CAREamics/careamics/pull/563
reported-error: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL pathlib.PosixPath was not an allowed global by default. Please use `torch.serialization.add_safe_globals([pathlib.PosixPath])` ... (loading careamist from a checkpoint)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL pathlib.PosixPath was not an allowed global by default. ... at line 35
root-cause: line 32
expect: DG011
"""
import os
import tempfile
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- careamics/models/unet.py
class TinyUNet(nn.Module):
    def __init__(self, depth=1, features=8):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(1, features, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.up = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(features, 1, 3, padding=1))

    def forward(self, x):
        return self.up(self.down(x))


# ---- careamics/careamist.py
class CAREamist:
    def __init__(self, source, work_dir=None):
        if isinstance(source, dict):
            self.cfg = dict(source, work_dir=Path(work_dir or tempfile.mkdtemp()))  # root-cause
            self.model = TinyUNet(**self.cfg["model"])
        else:
            ckpt = torch.load(source)  # fails-here
            self.cfg = ckpt["careamics_config"]
            self.model = TinyUNet(**self.cfg["model"])
            self.model.load_state_dict(ckpt["state_dict"])

    def train(self, tiles, epochs=2):
        optimizer = torch.optim.Adam(self.model.parameters(), lr=self.cfg["lr"])
        for epoch in range(epochs):
            mask = torch.rand_like(tiles) < 0.05
            masked = torch.where(mask, torch.roll(tiles, 1, dims=-1), tiles)
            loss = F.mse_loss(self.model(masked)[mask], tiles[mask])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch}: n2v loss {loss.item():.4f}")
        path = os.path.join(self.cfg["work_dir"], "last.ckpt")
        torch.save({"state_dict": self.model.state_dict(), "careamics_config": self.cfg}, path)
        return path

    def predict(self, tiles):
        with torch.no_grad():
            return self.model(tiles)


if __name__ == "__main__":
    torch.manual_seed(0)
    config = {"experiment_name": "n2v_tiles", "model": {"depth": 1, "features": 8}, "lr": 1e-3}
    tiles = torch.rand(4, 1, 32, 32)
    ckpt_path = CAREamist(config).train(tiles)
    restored = CAREamist(ckpt_path)
    print("prediction", tuple(restored.predict(tiles).shape))
