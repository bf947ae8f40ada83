"""Writes into its own folder before its first step: a checkpoint over an existing one, a line
appended to an existing log, a new folder, and a file next to `Path(__file__).resolve()`; it
also reads data.csv beside it (relative reads must still work)."""
from pathlib import Path

import torch
from torch import nn

with open("data.csv") as handle:
    rows = handle.read().split()
print("read", len(rows), "rows")
model = nn.Linear(2, 1)
torch.save(model.state_dict(), "checkpoint.pt")  # overwrites the user's checkpoint.pt
with open("log.txt", "a") as log:  # appends to the user's log.txt
    log.write("run\n")
Path("runs/exp1").mkdir(parents=True, exist_ok=True)
(Path("runs") / "exp1" / "events.txt").write_text("event\n")
(Path(__file__).resolve().parent / "beside.txt").write_text("beside\n")
with open("sub/existing.txt", "w") as handle:  # in an existing sub-folder, over an existing file
    handle.write("overwritten\n")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.tensor([[float(v) for v in r.split(",")] for r in rows])
model(x).sum().backward()
opt.step()
