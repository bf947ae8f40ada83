"""Policy fine-tuning script with checkpoint/resume (Isaac-GR00T style): the checkpoint's rng_state holds np.random.get_state(), and resuming loads it with torch.load's default weights_only=True
source: https://github.com/NVIDIA/Isaac-GR00T/pull/300
reported-error: _pickle.UnpicklingError: Weights only load failed... WeightsUnpickler error: Unsupported global: GLOBAL numpy.dtypes.UInt32DType was not an allowed global by default. (when resuming with --resume)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 43
root-cause: line 37
expect: DG011
"""
import argparse
import os
import random
import tempfile

import numpy as np
import torch
import torch.nn as nn


class ActionHead(nn.Module):
    def __init__(self, obs_dim=16, action_dim=7, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.GELU(), nn.Linear(hidden, action_dim))

    def forward(self, obs):
        return self.net(obs)


class DualBrainTrainer:
    def __init__(self, model, output_dir, lr=1e-4):
        self.model = model
        self.output_dir = output_dir
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.global_step = 0

    def _save_rng_state(self, ckpt_dir):
        rng_states = {
            "python": random.getstate(),
            "numpy": np.random.get_state(),  # root-cause
            "cpu": torch.random.get_rng_state(),
        }
        torch.save(rng_states, os.path.join(ckpt_dir, "rng_state.pth"))

    def _load_rng_state(self, ckpt_dir):
        checkpoint_rng_state = torch.load(os.path.join(ckpt_dir, "rng_state.pth"))  # fails-here
        random.setstate(checkpoint_rng_state["python"])
        np.random.set_state(checkpoint_rng_state["numpy"])
        torch.random.set_rng_state(checkpoint_rng_state["cpu"])

    def save_checkpoint(self):
        ckpt_dir = os.path.join(self.output_dir, f"checkpoint-{self.global_step}")
        os.makedirs(ckpt_dir, exist_ok=True)
        torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(), "step": self.global_step},
                   os.path.join(ckpt_dir, "trainer_state.pt"))
        self._save_rng_state(ckpt_dir)
        return ckpt_dir

    def resume(self, ckpt_dir):
        state = torch.load(os.path.join(ckpt_dir, "trainer_state.pt"))
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.global_step = state["step"]
        self._load_rng_state(ckpt_dir)

    def train(self, max_steps):
        while self.global_step < max_steps:
            obs = torch.randn(16, 16)
            target = torch.tanh(obs[:, :7] + 0.1 * np.random.randn())
            loss = nn.functional.mse_loss(self.model(obs), target)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.global_step += 1
        print(f"step {self.global_step} loss {loss.item():.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--output-dir", default=tempfile.mkdtemp())
    parser.add_argument("--max-steps", type=int, default=10)
    args = parser.parse_args()
    trainer = DualBrainTrainer(ActionHead(), args.output_dir)
    trainer.train(args.max_steps // 2)
    ckpt = trainer.save_checkpoint()
    print("interrupted; resuming from", os.path.basename(ckpt))
    resumed = DualBrainTrainer(ActionHead(), args.output_dir)
    resumed.resume(ckpt)
    resumed.train(args.max_steps)
