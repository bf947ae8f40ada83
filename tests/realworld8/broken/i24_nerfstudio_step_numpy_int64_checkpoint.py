"""Nerfstudio-style trainer and eval_setup: the training loop iterates over a numpy step schedule, so the step stored in the checkpoint is a numpy.int64, and ns-eval's loader reads the checkpoint with the weights_only=True default
source: https://github.com/nerfstudio-project/nerfstudio/pull/3702
reported-error: UnpicklingError: Weights only load failed ... Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default (loading a trained checkpoint through eval_setup())
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 71
root-cause: line 71
expect: DG011
"""
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn


@dataclass
class TrainerConfig:
    max_num_iterations: int = 30
    steps_per_save: int = 10
    output_dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp()))


class NerfactoField(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, 4))

    def forward(self, positions):
        return self.mlp(positions)


class Pipeline(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = NerfactoField()

    def get_train_loss(self, positions, rgb):
        return nn.functional.mse_loss(torch.sigmoid(self.model(positions)[:, :3]), rgb)


class Trainer:
    def __init__(self, config):
        self.config = config
        self.pipeline = Pipeline()
        self.optimizer = torch.optim.Adam(self.pipeline.parameters(), lr=1e-3)
        self.checkpoint_dir = config.output_dir / "nerfstudio_models"
        self.checkpoint_dir.mkdir(parents=True, exist_ok=True)

    def save_checkpoint(self, step):
        ckpt_path = self.checkpoint_dir / f"step-{step:09d}.ckpt"
        torch.save({"step": step, "pipeline": self.pipeline.state_dict(), "optimizers": {"fields": self.optimizer.state_dict()}}, ckpt_path)  # root-cause-alt

    def train(self):
        rng = np.random.default_rng(0)
        for step in np.arange(self.config.max_num_iterations):
            positions = torch.from_numpy(rng.random((64, 3)).astype(np.float32))
            loss = self.pipeline.get_train_loss(positions, positions.flip(-1))
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            if (step + 1) % self.config.steps_per_save == 0:
                self.save_checkpoint(step)


def eval_load_checkpoint(config, pipeline):
    load_dir = config.output_dir / "nerfstudio_models"
    load_step = sorted(int(x[x.find("-") + 1 : x.find(".")]) for x in os.listdir(load_dir))[-1]
    load_path = load_dir / f"step-{load_step:09d}.ckpt"
    loaded_state = torch.load(load_path, map_location="cpu")  # root-cause # fails-here
    pipeline.load_state_dict(loaded_state["pipeline"])
    print(f"Done loading checkpoint from {load_path}")
    return load_path, loaded_state["step"]


def eval_setup(config):
    pipeline = Pipeline().eval()
    checkpoint_path, step = eval_load_checkpoint(config, pipeline)
    return config, pipeline, checkpoint_path, step


if __name__ == "__main__":
    config = TrainerConfig()
    Trainer(config).train()
    _, pipeline, path, step = eval_setup(config)
    print("evaluated step", step)
