"""Checkpoint holds only state_dicts and plain Python values (vars(args), float(best)),
so the default weights_only=True load works; map_location is given."""
import argparse
import os
import tempfile

import numpy as np
import torch
from torch import nn


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--hidden", type=int, default=16)
    p.add_argument("--lr", type=float, default=1e-2)
    p.add_argument("--out", default=tempfile.mkdtemp())
    return p.parse_args()


def build(hidden):
    return nn.Sequential(nn.Linear(6, hidden), nn.ReLU(), nn.Linear(hidden, 1))


def main():
    args = parse()
    model = build(args.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    x = torch.randn(128, 6)
    y = x.mean(1, keepdim=True)
    best = float("inf")
    path = os.path.join(args.out, "best.pt")
    for epoch in range(3):
        losses = []
        for i in range(0, 128, 32):
            loss = nn.functional.mse_loss(model(x[i:i + 32]), y[i:i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        epoch_loss = float(np.mean(losses))
        if epoch_loss < best:
            best = epoch_loss
            torch.save({"config": vars(args), "model": model.state_dict(),
                        "optimizer": opt.state_dict(), "best": best, "epoch": epoch}, path)
    ckpt = torch.load(path, map_location="cpu")
    restored = build(ckpt["config"]["hidden"])
    restored.load_state_dict(ckpt["model"])
    print("restored epoch", ckpt["epoch"], "best", round(ckpt["best"], 5))


if __name__ == "__main__":
    main()
