"""Molecular-property regressor that still stores the argparse Namespace in its own checkpoint, and reloads that file, written a few lines earlier by the same run, with torch.load(..., weights_only=False) and a comment saying why that is acceptable here
source: https://github.com/chemprop/chemprop/issues/1227
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn


def build_model(args, bits=64):
    return nn.Sequential(nn.Linear(bits, args.hidden_size), nn.ReLU(), nn.Linear(args.hidden_size, 1))


def load_model(path):
    # Trusted file: written by save_checkpoint() in this same run, never downloaded. It pickles the
    # argparse.Namespace on purpose, which the weights_only=True default refuses.
    ckpt = torch.load(path, map_location="cpu", weights_only=False)
    model = build_model(ckpt["args"])
    model.load_state_dict(ckpt["state_dict"])
    return model


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--hidden_size", type=int, default=32)
    args = p.parse_args([])
    x = (torch.rand(96, 64) < 0.1).float()
    y = x[:, :8].sum(1, keepdim=True)
    model = build_model(args)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(3):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    path = os.path.join(tempfile.mkdtemp(), "model.pt")
    torch.save({"args": args, "state_dict": model.state_dict()}, path)
    print("reloaded rmse", nn.functional.mse_loss(load_model(path)(x), y).sqrt().item())
