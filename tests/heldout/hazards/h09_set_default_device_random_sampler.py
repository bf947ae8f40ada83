"""CUDA ONLY: with a CUDA default device, RandomSampler's randperm runs on CUDA while
its torch.Generator() is on the CPU -> RuntimeError: Expected a 'cuda' device type
for generator but found 'cpu' when the loader is iterated.
On a CPU-only build the first tensor factory after set_default_device('cuda')
raises AssertionError (Torch not compiled with CUDA enabled)."""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, RandomSampler, TensorDataset


def get_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bs", type=int, default=32)
    ap.add_argument("--steps", type=int, default=10)
    return ap.parse_args()


def main():
    args = get_args()
    torch.set_default_device("cuda")  # expect: DG003
    xs = torch.randn(256, 12)
    ys = torch.randint(0, 3, (256,))
    ds = TensorDataset(xs, ys)
    sampler = RandomSampler(ds, replacement=False)
    loader = DataLoader(ds, batch_size=args.bs, sampler=sampler)

    model = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    step = 0
    while step < args.steps:
        for xb, yb in loader:
            loss = nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if step >= args.steps:
                break
    print("done", step)


if __name__ == "__main__":
    main()
