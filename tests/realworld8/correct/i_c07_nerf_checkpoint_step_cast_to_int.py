"""Nerfstudio-style trainer that still iterates over a numpy step schedule, but stores int(step) in the checkpoint, so eval_setup's torch.load with the weights_only=True default reads it back
source: https://github.com/nerfstudio-project/nerfstudio/pull/3702
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import tempfile
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

checkpoint_dir = Path(tempfile.mkdtemp()) / "nerfstudio_models"
checkpoint_dir.mkdir(parents=True)
field = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 4))
optimizer = torch.optim.Adam(field.parameters(), lr=1e-3)
for step in np.arange(20):
    positions = torch.rand(64, 3)
    loss = nn.functional.mse_loss(torch.sigmoid(field(positions)[:, :3]), positions.flip(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if (step + 1) % 10 == 0:
        torch.save({"step": int(step), "pipeline": field.state_dict(), "optimizers": {"fields": optimizer.state_dict()}}, checkpoint_dir / f"step-{int(step):09d}.ckpt")

load_path = sorted(checkpoint_dir.iterdir())[-1]
loaded_state = torch.load(load_path, map_location="cpu")
field.load_state_dict(loaded_state["pipeline"])
print("loaded step", loaded_state["step"], type(loaded_state["step"]).__name__)
