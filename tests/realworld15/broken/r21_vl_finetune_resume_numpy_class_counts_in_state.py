"""Vision-language fine-tune resume: the trainer state saved next to the weights includes NumPy arrays (per-class sample counts from np.bincount and the loss history as an ndarray); resuming with torch.load(..., map_location="cpu") and the default weights_only fails on numpy's _reconstruct
source: https://github.com/2U1/Qwen-VL-Series-Finetune/issues/185
reported-error: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 42
root-cause: line 32
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


class Projector(nn.Module):
    def __init__(self, vis_dim=24, txt_dim=16):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(vis_dim, 32), nn.GELU(), nn.Linear(32, txt_dim))

    def forward(self, v):
        return self.mlp(v)


class TrainerState:
    def __init__(self, labels):
        self.global_step = 0
        self.class_counts = np.bincount(labels, minlength=5)
        self.loss_history = np.zeros(0)

    def to_dict(self):
        return {"global_step": self.global_step, "class_counts": self.class_counts, "loss_history": self.loss_history}  # root-cause


def save_checkpoint(output_dir, model, optimizer, state):
    path = os.path.join(output_dir, f"checkpoint-{state.global_step}.pt")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "trainer_state": state.to_dict()}, path)
    return path


def resume_from_checkpoint(path, model, optimizer):
    ckpt = torch.load(path, map_location="cpu")  # fails-here
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    return ckpt["trainer_state"]["global_step"]


rng = np.random.default_rng(0)
model = Projector()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
state = TrainerState(rng.integers(0, 5, 100))
for step in range(3):
    loss = (model(torch.randn(8, 24)) - torch.randn(8, 16)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    state.global_step += 1
    state.loss_history = np.append(state.loss_history, loss.item())
path = save_checkpoint(tempfile.mkdtemp(), model, optimizer, state)
print("resumed at step", resume_from_checkpoint(path, Projector(), torch.optim.AdamW(Projector().parameters())))
