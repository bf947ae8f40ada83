"""Trains, saves a checkpoint holding an argparse Namespace, and loads it back with torch's
defaults (weights_only=True since 2.6): the load raises torch's UnpicklingError, whose message
bolds a sentence with terminal escapes."""
import argparse

import torch
from torch import nn

args = argparse.ArgumentParser().parse_args()
model = nn.Linear(3, 1)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for _epoch in range(2):
    opt.zero_grad()
    loss = model(torch.randn(8, 3)).pow(2).mean()
    loss.backward()
    opt.step()
torch.save({"model": model.state_dict(), "args": args}, "last.pt")
state = torch.load("last.pt")  # LOAD-LINE
print(state["model"])
