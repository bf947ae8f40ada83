"""Custom Trainer that saves reproducible checkpoints: save_checkpoint() stores the Python, NumPy and torch RNG states next to model/optimizer/scheduler; the NumPy state from np.random.get_state() contains an ndarray, so resume_training() fails on the default weights_only=True torch.load
source: https://github.com/huggingface/transformers/issues/40500
reported-error: torch.load fails to load RNG state in PyTorch 2.6+ due to weights_only=True and missing safe globals
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 48
root-cause: line 40
expect: DG011
"""
import os
import random
import tempfile

import numpy as np
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, output_dir):
        self.model = model
        self.output_dir = output_dir
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=5, gamma=0.5)
        self.global_step = 0

    def train_steps(self, n):
        for _ in range(n):
            idx = np.random.randint(0, 256, size=32)
            x = torch.from_numpy(X[idx])
            loss = nn.functional.mse_loss(self.model(x).squeeze(-1), torch.from_numpy(y[idx]))
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.scheduler.step()
            self.global_step += 1
        return loss.item()

    def save_checkpoint(self):
        rng_states = {
            "python": random.getstate(),
            "numpy": np.random.get_state(),  # root-cause
            "cpu": torch.random.get_rng_state(),
        }
        torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                    "scheduler": self.scheduler.state_dict(), "step": self.global_step, "rng_state": rng_states},
                   os.path.join(self.output_dir, f"checkpoint-{self.global_step}.pt"))

    def resume_training(self, step):
        ckpt = torch.load(os.path.join(self.output_dir, f"checkpoint-{step}.pt"))  # fails-here
        self.model.load_state_dict(ckpt["model"])
        self.optimizer.load_state_dict(ckpt["optimizer"])
        self.scheduler.load_state_dict(ckpt["scheduler"])
        random.setstate(ckpt["rng_state"]["python"])
        np.random.set_state(ckpt["rng_state"]["numpy"])
        torch.random.set_rng_state(ckpt["rng_state"]["cpu"])
        self.global_step = ckpt["step"]


rng = np.random.default_rng(0)
X = rng.normal(size=(256, 8)).astype(np.float32)
y = (X @ rng.normal(size=8)).astype(np.float32)
out = tempfile.mkdtemp()
trainer = Trainer(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)), out)
print("loss", round(trainer.train_steps(10), 4))
trainer.save_checkpoint()
resumed = Trainer(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)), out)
resumed.resume_training(10)
print("resumed at step", resumed.global_step, "loss", round(resumed.train_steps(5), 4))
