"""Trainer whose build_optimizer() sets capturable=cfg.compile for AdamW in the belief that torch.compile needs it; the run uses --compile on a CPU-only machine, and the eager first step asserts that capturable tensors must be on a supported accelerator
source: https://github.com/pytorch/pytorch/pull/149770
reported-error: none quoted (the PR documents that capturable tensors must be on CUDA, XPU, HPU or XLA)
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at line 37
root-cause: line 26
expect: DG016
"""
import argparse

import torch
import torch.nn as nn


def parse_args(argv):
    p = argparse.ArgumentParser()
    p.add_argument("--compile", action="store_true")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--weight-decay", type=float, default=0.05)
    return p.parse_args(argv)


def build_optimizer(cfg, model):
    decay = [p for n, p in model.named_parameters() if p.ndim >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.ndim < 2]
    groups = [{"params": decay, "weight_decay": cfg.weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=cfg.lr, capturable=cfg.compile)  # root-cause


def main(cfg):
    model = nn.Sequential(nn.Linear(16, 64), nn.GELU(), nn.LayerNorm(64), nn.Linear(64, 4))
    optimizer = build_optimizer(cfg, model)
    for step in range(3):
        x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
        print("step", step, "loss", loss.item())


if __name__ == "__main__":
    main(parse_args(["--compile"]))
