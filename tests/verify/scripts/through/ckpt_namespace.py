"""Saves a checkpoint holding an argparse Namespace and a NumPy scalar at the end of training;
the resume branch that would load it is never taken in this run."""
import argparse

import numpy as np
import torch
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--resume", default="")
args = parser.parse_args()
model = nn.Linear(3, 1)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
if args.resume:
    state = torch.load(args.resume)
    model.load_state_dict(state["model"])
for _epoch in range(2):
    opt.zero_grad()
    loss = model(torch.randn(8, 3)).pow(2).mean()
    loss.backward()
    opt.step()
best = np.float64(loss.item())
torch.save({"model": model.state_dict(), "args": args, "best": best}, "last.pt")  # SAVE-LINE
torch.save({"model": model.state_dict(), "best": float(best)}, "clean.pt")  # CLEAN-SAVE
print("saved")
