"""Saves the run config (argparse.Namespace) next to the weights, then reloads for inference."""
import argparse
import os
import tempfile

import torch
from torch import nn


def get_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--out", default=tempfile.mkdtemp())
    return parser


def build(args):
    return nn.Sequential(nn.Linear(5, args.hidden), nn.ReLU(), nn.Linear(args.hidden, 2))


def train(args):
    model = build(args)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    x, y = torch.randn(100, 5), torch.randint(0, 2, (100,))
    for _ in range(5):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    path = os.path.join(args.out, "model.pt")
    torch.save({"args": args, "model_state": model.state_dict()}, path)  # expect: DG011
    return path


def load_for_inference(path, device="cpu"):
    ckpt = torch.load(path, map_location=device)
    model = build(ckpt["args"])
    model.load_state_dict(ckpt["model_state"])
    return model.eval()


if __name__ == "__main__":
    args = get_parser().parse_args()
    path = train(args)
    model = load_for_inference(path)
    print(model(torch.randn(2, 5)))
