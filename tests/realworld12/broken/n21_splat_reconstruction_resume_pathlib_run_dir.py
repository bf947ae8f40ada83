"""Gaussian-splat style reconstruction runner whose checkpoint dict records the run directory and image folder as pathlib.Path objects; resume() loads it with torch.load(path, map_location=device) under the weights_only=True default and fails on pathlib.PosixPath
source: https://github.com/openvdb/fvdb-reality-capture/pull/147
reported-error: _pickle.UnpicklingError: Weights only load failed ... (checkpoints of the reconstruction runner need weights_only=False)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL pathlib.PosixPath was not an allowed global by default. ... at line 55
root-cause: line 49
expect: DG011
"""
import tempfile
from pathlib import Path

import torch
import torch.nn as nn


class Splats(nn.Module):
    def __init__(self, n=256):
        super().__init__()
        self.means = nn.Parameter(torch.randn(n, 3))
        self.log_scales = nn.Parameter(torch.full((n, 3), -2.0))
        self.colors = nn.Parameter(torch.rand(n, 3))

    def render(self, rays):
        w = torch.softmax(-torch.cdist(rays, self.means) / self.log_scales.exp().mean(-1), dim=-1)
        return w @ self.colors


class Runner:
    def __init__(self, run_dir, image_dir, device):
        self.run_dir, self.image_dir, self.device = Path(run_dir), Path(image_dir), device
        self.model = Splats().to(device)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-2)
        self.step = 0

    def train(self, steps):
        for _ in range(steps):
            rays = torch.randn(64, 3, device=self.device)
            target = torch.sigmoid(rays)
            loss = (self.model.render(rays) - target).abs().mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.step += 1
        return loss.item()

    def save(self):
        ckpt_dir = self.run_dir / "checkpoints" / f"{self.step:08d}"
        ckpt_dir.mkdir(parents=True, exist_ok=True)
        state = {"step": self.step, "model": self.model.state_dict(), "optimizer": self.opt.state_dict(),
                 "run_dir": self.run_dir, "image_dir": self.image_dir}  # root-cause
        torch.save(state, ckpt_dir / "reconstruct_ckpt.pt")
        return ckpt_dir / "reconstruct_ckpt.pt"

    @classmethod
    def resume(cls, checkpoint_path, device):
        checkpoint_state = torch.load(checkpoint_path, map_location=device)  # fails-here
        runner = cls(checkpoint_state["run_dir"], checkpoint_state["image_dir"], device)
        runner.model.load_state_dict(checkpoint_state["model"])
        runner.opt.load_state_dict(checkpoint_state["optimizer"])
        runner.step = checkpoint_state["step"]
        return runner


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    base = Path(tempfile.mkdtemp())
    runner = Runner(base / "run_2025-10-22", base / "images", device)
    print(f"l1 {runner.train(5):.4f}")
    resumed = Runner.resume(runner.save(), device)
    print(f"resumed at step {resumed.step}, l1 {resumed.train(5):.4f}")
