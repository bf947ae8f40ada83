"""Population disaggregation (superpixel model): with -train_lvl f the fine-level census counts are read from a numpy dict without the .astype(np.float32) the coarse path has, so the MSE between aggregated predictions and census counts is silently float64
source: https://github.com/jvargasmu/population_estimation/issues/121
reported-error: training with --loss mse works with -train_lvl c but fails with -train_lvl f (traceback in superpixel_disagg_model.py)
outcome: ok (silent: the mse loss at line 48 is float64 for the fine level, printed as "loss dtype torch.float64"; the coarse level prints torch.float32)
root-cause: line 42
expect: DG008
"""
import argparse

import numpy as np
import torch
import torch.nn as nn


def load_census(train_lvl, n_regions=20, seed=0):
    rng = np.random.default_rng(seed)
    counts = rng.uniform(1e2, 1e4, n_regions)
    if train_lvl == "c":
        return {"census": counts.astype(np.float32), "n_regions": n_regions}
    return {"census": counts, "n_regions": n_regions}  # root-cause-alt


def region_features(n_regions, pix_per_region=16, n_feat=5, seed=1):
    g = torch.Generator().manual_seed(seed)
    feats = torch.rand(n_regions * pix_per_region, n_feat, generator=g)
    region_of_pixel = torch.arange(n_regions).repeat_interleave(pix_per_region)
    return feats, region_of_pixel


class PixAdminTransform(nn.Module):
    def __init__(self, n_feat=5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_feat, 16), nn.ReLU(), nn.Linear(16, 1), nn.Softplus())

    def forward(self, feats, region_of_pixel, n_regions):
        dens = self.net(feats).squeeze(-1)
        return torch.zeros(n_regions).index_add_(0, region_of_pixel, dens)


def train(args):
    data = load_census(args.train_lvl)
    census = torch.from_numpy(data["census"] / 1e3)  # root-cause
    feats, region_of_pixel = region_features(data["n_regions"])
    model = PixAdminTransform()
    optim = torch.optim.Adam(model.parameters(), lr=args.lr)
    for step in range(args.steps):
        pred = model(feats, region_of_pixel, data["n_regions"])
        loss = nn.functional.mse_loss(pred, census)  # fails-here
        optim.zero_grad()
        loss.backward()
        optim.step()
    print(f"train_lvl {args.train_lvl}: loss {loss.item():.3f}, loss dtype {loss.dtype}")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("-train_lvl", default="f")
    p.add_argument("-lr", type=float, default=1e-3)
    p.add_argument("--loss", default="mse")
    p.add_argument("--steps", type=int, default=5)
    train(p.parse_args([]))
