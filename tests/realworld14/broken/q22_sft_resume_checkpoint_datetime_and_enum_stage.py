"""SFT trainer that writes resumable checkpoints holding the model and optimizer state plus bookkeeping: a (epoch, step) tuple, a set of seen shards, the training Stage enum and a datetime.now() timestamp; resuming with torch.load(..., map_location="cpu") under the default weights_only=True fails on the datetime
source: https://github.com/allenai/open-instruct/issues/673
reported-error: Resume SFT from checkpoint failed (torch.load with weights_only inside accelerator.load_state)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL datetime.datetime was not an allowed global by default. ... at line 34
root-cause: line 29
expect: DG011
"""
import datetime
import enum
import os
import tempfile

import torch
import torch.nn as nn


class Stage(enum.Enum):
    WARMUP = "warmup"
    MAIN = "main"


class CheckpointMixin:
    def save_state(self, path, epoch, step):
        torch.save({
            "model": self.model.state_dict(),
            "optimizer": self.opt.state_dict(),
            "position": (epoch, step),
            "seen_shards": set(self.seen_shards),
            "saved_at": datetime.datetime.now(),  # root-cause
            "stage": self.stage.value,
        }, path)

    def load_state(self, path):
        state = torch.load(path, map_location="cpu")  # fails-here
        self.model.load_state_dict(state["model"])
        self.opt.load_state_dict(state["optimizer"])
        self.stage = Stage(state["stage"])
        return state["position"]


class SFTTrainer(CheckpointMixin):
    def __init__(self):
        self.model = nn.Sequential(nn.Embedding(100, 32), nn.Flatten(), nn.Linear(8 * 32, 100))
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=2e-5)
        self.stage, self.seen_shards = Stage.WARMUP, set()

    def train_steps(self, n):
        for step in range(n):
            tokens = torch.randint(0, 100, (4, 9))
            loss = nn.functional.cross_entropy(self.model(tokens[:, :8]), tokens[:, 8])
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.seen_shards.add(f"shard-{step % 3}")
        return loss.item()


out_dir = tempfile.mkdtemp()
trainer = SFTTrainer()
trainer.train_steps(5)
trainer.stage = Stage.MAIN
trainer.save_state(os.path.join(out_dir, "step_5.pt"), epoch=0, step=5)
resumed = SFTTrainer()
epoch, step = resumed.load_state(os.path.join(out_dir, "step_5.pt"))
print("resumed at", epoch, step, resumed.stage, "loss", resumed.train_steps(2))
