"""Bayesian-style regression Trainer whose --double flag is honoured with torch.set_default_dtype(torch.float64) inside fit(), after __init__ already built the float32 network; the torch.linspace inputs created afterwards are float64 and the first train_step fails in the network
source: https://github.com/pyro-ppl/pyro/issues/2560
reported-error: expected type torch.FloatTensor but got torch.DoubleTensor (user wants DoubleTensor; advised to use torch.set_default_dtype)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 21
root-cause: line 47
expect: DG001
"""
import argparse
import math

import torch
import torch.nn as nn


class MeanField(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, 2))

    def forward(self, x):
        loc, log_scale = self.net(x).chunk(2, dim=-1)  # fails-here
        return loc, log_scale.clamp(-5, 2)


class Trainer:
    def __init__(self, args):
        self.args = args
        self.model = MeanField(args.hidden)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=args.lr)

    def make_data(self, n=64):
        x = torch.linspace(-3, 3, n).unsqueeze(-1)
        y = torch.sin(x) + 0.1 * torch.randn(n, 1)
        return x, y

    def train_step(self, x, y):
        loc, log_scale = self.model(x)
        nll = 0.5 * ((y - loc) / log_scale.exp()) ** 2 + log_scale + 0.5 * math.log(2 * math.pi)
        loss = nll.mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def fit(self):
        if self.args.double:
            torch.set_default_dtype(torch.float64)  # root-cause
        x, y = self.make_data()
        for epoch in range(self.args.epochs):
            loss = self.train_step(x, y)
            print(f"epoch {epoch}: nll {loss:.4f}")


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--hidden", type=int, default=16)
    p.add_argument("--lr", type=float, default=1e-2)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--double", action="store_true", default=True)
    Trainer(p.parse_args(argv)).fit()


if __name__ == "__main__":
    main([])
