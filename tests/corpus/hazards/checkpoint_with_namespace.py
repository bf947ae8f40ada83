import argparse
import os
import tempfile

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--hidden", type=int, default=16)
args = parser.parse_args([])

model = nn.Sequential(nn.Linear(3, args.hidden), nn.ReLU(), nn.Linear(args.hidden, 1))
optimizer = torch.optim.Adam(model.parameters())

with tempfile.TemporaryDirectory() as run_dir:
    path = os.path.join(run_dir, "run.ckpt")
    torch.save({"args": args, "model": model.state_dict()}, path)  # expect: DG011
    checkpoint = torch.load(path, map_location="cpu")
    model.load_state_dict(checkpoint["model"])

x, y = torch.randn(10, 3), torch.randn(10, 1)
optimizer.zero_grad()
nn.functional.mse_loss(model(x), y).backward()
optimizer.step()
