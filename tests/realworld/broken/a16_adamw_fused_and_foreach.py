"""Following the docs note ("if both are True, fused is prioritized"), the optimizer is built with fused=True and foreach=True
source: https://github.com/pytorch/pytorch/issues/135340
reported-error: RuntimeError: `fused` and `foreach` cannot be `True` together.
outcome: RuntimeError: `fused` and `foreach` cannot be `True` together. at line 28
root-cause: line 28
expect: DG016
"""
import argparse

import torch
import torch.nn as nn


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--weight-decay", type=float, default=0.1)
    p.add_argument("--steps", type=int, default=5)
    return p.parse_args()


def build_optimizer(model, args):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if p.ndim < 2 else decay).append(p)
    groups = [{"params": decay, "weight_decay": args.weight_decay},
              {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=args.lr, betas=(0.9, 0.95), fused=True, foreach=True)  # root-cause # fails-here


def main():
    args = get_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = nn.Sequential(nn.Linear(16, 64), nn.GELU(), nn.LayerNorm(64), nn.Linear(64, 1)).to(device)
    optimizer = build_optimizer(model, args)
    for step in range(args.steps):
        x = torch.randn(32, 16, device=device)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
