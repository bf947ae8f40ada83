"""Quick test harness for a linear probe: the input dtype comes from an argparse default ("float64", left from a numerics check) resolved with getattr(torch, ...), while the probe layer is float32
source: https://github.com/pytorch/pytorch/issues/105243
reported-error: RuntimeError: mat1 and mat2 must have the same dtype (from a linear layer while testing: one mat was float32 and the other float64)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 36
root-cause: line 18
expect: DG004
"""
import argparse

import torch
import torch.nn as nn


def parse_args(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--features", type=int, default=16)
    parser.add_argument("--samples", type=int, default=128)
    parser.add_argument("--dtype", default="float64")  # root-cause
    return parser.parse_args(argv)


def make_inputs(args):
    dtype = getattr(torch, args.dtype)
    g = torch.Generator().manual_seed(0)
    x = torch.randn(args.samples, args.features, generator=g, dtype=dtype)
    w_true = torch.randn(args.features, 1, generator=g, dtype=dtype)
    return x, x @ w_true


class Probe(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.linear = nn.Linear(features, 1)

    def forward(self, x):
        return self.linear(x)  # fails-here


def test_probe_fits(args):
    x, y = make_inputs(args)
    probe = Probe(args.features)
    opt = torch.optim.SGD(probe.parameters(), lr=0.1)
    for _ in range(20):
        loss = ((probe(x) - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("final loss", loss.item())


if __name__ == "__main__":
    test_probe_fits(parse_args([]))
