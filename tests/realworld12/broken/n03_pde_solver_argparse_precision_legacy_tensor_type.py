"""Physics-informed solver script whose --precision double option is implemented with the deprecated torch.set_default_tensor_type(torch.DoubleTensor) in setup_precision(); it trains in float64 as intended but PyTorch warns that the call is deprecated
source: https://github.com/pytorch/pytorch/pull/115041
reported-error: UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 26
expect: DG002
"""
import argparse

import torch
import torch.nn as nn

TENSOR_TYPES = {"single": torch.FloatTensor, "double": torch.DoubleTensor}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description="1-D Poisson PINN")
    p.add_argument("--precision", choices=sorted(TENSOR_TYPES), default="double")
    p.add_argument("--width", type=int, default=24)
    p.add_argument("--iters", type=int, default=30)
    p.add_argument("--lr", type=float, default=5e-3)
    return p.parse_args(argv)


def setup_precision(args):
    torch.set_default_tensor_type(TENSOR_TYPES[args.precision])  # root-cause


def build(args):
    return nn.Sequential(nn.Linear(1, args.width), nn.Tanh(), nn.Linear(args.width, args.width), nn.Tanh(),
                         nn.Linear(args.width, 1))


def residual(net, x):
    x = x.requires_grad_(True)
    u = net(x)
    du = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
    d2u = torch.autograd.grad(du.sum(), x, create_graph=True)[0]
    return d2u + torch.pi ** 2 * torch.sin(torch.pi * x)


def main(argv=None):
    args = parse_args(argv)
    setup_precision(args)
    net = build(args)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    xb = torch.tensor([[0.0], [1.0]])
    for it in range(args.iters):
        x = torch.rand(64, 1)
        loss = residual(net, x).pow(2).mean() + net(xb).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"final loss {loss.item():.5f} dtype {loss.dtype}")


if __name__ == "__main__":
    main([])
