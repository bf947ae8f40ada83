"""Molecular-property regressor whose save_checkpoint() stores the argparse Namespace itself next to the state_dict (chemprop v1 style); load_model() later reads it back with torch.load(path, map_location=...) under the weights_only=True default and the unpickler refuses argparse.Namespace
source: https://github.com/chemprop/chemprop/issues/1227
reported-error: _pickle.UnpicklingError: Weights only load failed ... (checkpoint with args saved; fix: torch.load(path, map_location=..., weights_only=False)["args"])
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL argparse.Namespace was not an allowed global by default. ... at line 46
root-cause: line 42
expect: DG011
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


def parse_train_args(argv):
    p = argparse.ArgumentParser()
    p.add_argument("--hidden_size", type=int, default=32)
    p.add_argument("--depth", type=int, default=2)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--save_dir", type=str, default=tempfile.mkdtemp())
    return p.parse_args(argv)


def fingerprints(n=96, bits=64, seed=0):
    rng = np.random.default_rng(seed)
    fp = (rng.random((n, bits)) < 0.1).astype(np.float32)
    y = fp[:, :8].sum(1, keepdims=True).astype(np.float32)
    return torch.from_numpy(fp), torch.from_numpy(y)


def build_model(args, bits=64):
    layers, d = [], bits
    for _ in range(args.depth):
        layers += [nn.Linear(d, args.hidden_size), nn.ReLU()]
        d = args.hidden_size
    return nn.Sequential(*layers, nn.Linear(d, 1))


def save_checkpoint(path, model, args):
    torch.save({"args": args, "state_dict": model.state_dict()}, path)  # root-cause


def load_model(path):
    ckpt = torch.load(path, map_location=lambda storage, loc: storage)  # fails-here
    model = build_model(ckpt["args"])
    model.load_state_dict(ckpt["state_dict"])
    return model


def main(argv):
    args = parse_train_args(argv)
    x, y = fingerprints()
    model = build_model(args)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    path = os.path.join(args.save_dir, "model.pt")
    save_checkpoint(path, model, args)
    reloaded = load_model(path)
    print("reloaded rmse", nn.functional.mse_loss(reloaded(x), y).sqrt().item())


if __name__ == "__main__":
    main([])
