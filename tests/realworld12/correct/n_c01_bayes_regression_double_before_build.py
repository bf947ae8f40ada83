"""Bayesian-style regression Trainer whose --double flag is applied with torch.set_default_dtype(torch.float64) in main() before the Trainer builds its network, so parameters and the torch.linspace inputs are float64 together
source: https://github.com/pyro-ppl/pyro/issues/2560
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
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
        loc, log_scale = self.net(x).chunk(2, dim=-1)
        return loc, log_scale.clamp(-5, 2)


class Trainer:
    def __init__(self, args):
        self.args = args
        self.model = MeanField(args.hidden)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=args.lr)

    def train_step(self, x, y):
        loc, log_scale = self.model(x)
        loss = (0.5 * ((y - loc) / log_scale.exp()) ** 2 + log_scale + 0.5 * math.log(2 * math.pi)).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss

    def fit(self):
        x = torch.linspace(-3, 3, 64).unsqueeze(-1)
        y = torch.sin(x) + 0.1 * torch.randn(64, 1)
        for epoch in range(self.args.epochs):
            loss = self.train_step(x, y)
            print(f"epoch {epoch}: nll {loss.item():.4f} ({loss.dtype})")


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--hidden", type=int, default=16)
    p.add_argument("--lr", type=float, default=1e-2)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--double", action="store_true", default=True)
    args = p.parse_args(argv)
    if args.double:
        torch.set_default_dtype(torch.float64)
    Trainer(args).fit()


if __name__ == "__main__":
    main([])
