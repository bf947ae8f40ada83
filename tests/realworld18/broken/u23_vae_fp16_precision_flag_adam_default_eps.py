"""Convolution-free VAE trainer with a --precision flag: build_model() calls .half() on the whole model for "16", the batches are halved to match, and the default Adam (eps=1e-8, state in float16) turns weights non-finite after the first updates without raising
source: https://github.com/Lightning-AI/pytorch-lightning/pull/21295
reported-error: float16 cannot represent values smaller than ~6e-5 (e.g. the optimizer eps), which can cause NaN during training
outcome: ok (silent: after optimizer.step() at line 52 the float16 weights become non-finite, printed as "step N: loss nan, non-finite params K" with K above 0)
root-cause: line 31
expect: DG012
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, d=32, z=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 2 * z))
        self.dec = nn.Sequential(nn.Linear(z, 64), nn.ReLU(), nn.Linear(64, d))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, -1)
        zs = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(zs), mu, logvar


def build_model(args):
    model = VAE()
    if args.precision == "16":
        model = model.half()  # root-cause
    return model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--precision", default="16", choices=["16", "32"])
    ap.add_argument("--lr", type=float, default=1e-3)
    args = ap.parse_args([])
    dtype = torch.float16 if args.precision == "16" else torch.float32
    torch.manual_seed(0)
    data = torch.from_numpy(np.random.default_rng(0).normal(0, 0.02, size=(256, 32)).astype(np.float32))
    model = build_model(args)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for step in range(12):
        x = data[(step * 32) % 256:(step * 32) % 256 + 32].to(dtype)
        recon, mu, logvar = model(x)
        kl = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
        loss = F.mse_loss(recon, x) + 1e-3 * kl
        opt.zero_grad()
        loss.backward()
        opt.step()  # fails-here
        bad = sum(int((~torch.isfinite(p)).sum()) for p in model.parameters())
        if step % 3 == 2:
            print(f"step {step}: loss {loss.item():.4f}, non-finite params {bad}")


if __name__ == "__main__":
    main()
