"""Hand-rolled mixed precision done right: Adam updates a float32 master model, and after every step the weights are copied into a separate float16 serving copy (built with copy.deepcopy(...).half()) that is only used under torch.no_grad for evaluation
source: https://github.com/suvojit-0x55aa/mixed-precision-pytorch/issues/2
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import copy

import torch
import torch.nn as nn


def make_net():
    return nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))


def sync_serving(master, serving):
    with torch.no_grad():
        for p_half, p_master in zip(serving.parameters(), master.parameters()):
            p_half.copy_(p_master)


if __name__ == "__main__":
    torch.manual_seed(0)
    master = make_net()
    serving = copy.deepcopy(master).half().eval()
    optimizer = torch.optim.Adam(master.parameters(), lr=1e-3)
    x = torch.randn(64, 10)
    y = torch.randn(64, 1) * 1e-3
    for step in range(4):
        loss = (master(x) - y).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        sync_serving(master, serving)
        with torch.no_grad():
            served = serving(x.half()).float()
        print(f"step {step}: loss {loss.item():.6f}, serving finite {bool(torch.isfinite(served).all())}")
