"""Checkpoint that stores the argparse Namespace next to the weights fails under the torch>=2.6 weights_only default
source: https://github.com/mlcommons/mlperf-automations/issues/465
reported-error: _pickle.UnpicklingError: Weights only load failed ... WeightsUnpickler error: Unsupported global: GLOBAL argparse.Namespace was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed (WeightsUnpickler error: Unsupported global: GLOBAL argparse.Namespace) at line 43
root-cause: line 43
expect: DG011
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--output_dir", default=tempfile.mkdtemp())
    return parser.parse_args([])


def build_model(args):
    return nn.Sequential(nn.Linear(16, args.hidden), nn.ReLU(), nn.Linear(args.hidden, 4))


def main():
    args = get_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = build_model(args).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for _ in range(args.steps):
        x = torch.randn(8, 16, device=device)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    ckpt_path = os.path.join(args.output_dir, "model.pt")
    torch.save({"model": model.state_dict(), "args": args}, ckpt_path)

    ckpt = torch.load(ckpt_path, map_location=device)  # root-cause # fails-here
    restored = build_model(ckpt["args"]).to(device)
    restored.load_state_dict(ckpt["model"])
    print("restored", sum(p.numel() for p in restored.parameters()))


if __name__ == "__main__":
    main()
