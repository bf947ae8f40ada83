"""Resume-from-checkpoint with the reporter's fix: the run's own checkpoint (written a moment earlier by the same script, so a trusted file) keeps a numpy best metric in the trainer state and is read with torch.load(..., weights_only=False) given on purpose
source: https://github.com/lincc-frameworks/hyrax/issues/537
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


def run_epochs(model, optimizer, start, stop, state):
    x, y = torch.randn(64, 8), torch.randn(64, 1)
    for epoch in range(start, stop):
        losses = []
        for i in range(0, 64, 16):
            loss = nn.functional.mse_loss(model(x[i : i + 16]), y[i : i + 16])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        state["epoch"] = epoch + 1
        state["best_val"] = min(state.get("best_val", np.inf), np.mean(losses))
    return state


model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
state = run_epochs(model, optimizer, 0, 2, {})
resume = os.path.join(tempfile.mkdtemp(), "checkpoint_2.pt")
torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "engine": state}, resume)

device = torch.device("cpu")
prev_checkpoint = torch.load(resume, map_location=device, weights_only=False)
model.load_state_dict(prev_checkpoint["model"])
optimizer.load_state_dict(prev_checkpoint["optimizer"])
state = run_epochs(model, optimizer, prev_checkpoint["engine"]["epoch"], 3, prev_checkpoint["engine"])
print("resumed, best", float(state["best_val"]))
