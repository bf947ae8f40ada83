"""Exoplanet transit classifier (AstroNet-style) ported to PyTorch: the global and local light-curve views are binned with NumPy from float64 time/flux arrays and fed straight to the float32 Conv1d towers at prediction time
source: https://github.com/google-research/exoplanet-ml/pull/12
reported-error: Make predictions gives errors for various tensors as "expected dtype double does not equal original dtype float"; forcing the global_view/local_view to np.float32 in predict.py solves it
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 40
root-cause: line 63
expect: DG004
"""
import argparse

import numpy as np
import torch
import torch.nn as nn


# ---- preprocess.py
def fold_and_bin(time, flux, period, n_bins, width):
    phase = np.mod(time + period / 2, period) - period / 2
    edges = np.linspace(-width / 2, width / 2, n_bins + 1)
    idx = np.digitize(phase, edges) - 1
    view = np.array([np.median(flux[idx == b]) if np.any(idx == b) else 1.0 for b in range(n_bins)])
    return (view - np.median(view)) / (np.abs(view.min() - np.median(view)) + 1e-9)


def global_view(time, flux, period):
    return fold_and_bin(time, flux, period, 201, period)


def local_view(time, flux, period, duration):
    return fold_and_bin(time, flux, period, 61, 4 * duration)


# ---- model.py
class Tower(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.ReLU(), nn.MaxPool1d(5, 2),
                                 nn.Conv1d(8, 16, 5, padding=2), nn.ReLU(), nn.AdaptiveMaxPool1d(8), nn.Flatten())

    def forward(self, x):
        return self.net(x)  # fails-here


class AstroCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.g, self.l = Tower(), Tower()
        self.head = nn.Sequential(nn.Linear(256, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, gv, lv):
        return torch.sigmoid(self.head(torch.cat([self.g(gv), self.l(lv)], 1)))


# ---- predict.py
def main():
    p = argparse.ArgumentParser()
    p.add_argument("--period", type=float, default=3.1)
    p.add_argument("--duration", type=float, default=0.12)
    args = p.parse_args([])
    rng = np.random.default_rng(0)
    time = np.sort(rng.uniform(0, 80, 6000))
    flux = 1.0 + 2e-4 * rng.standard_normal(time.size)
    flux[np.abs(np.mod(time + args.period / 2, args.period) - args.period / 2) < args.duration / 2] -= 2e-3
    gv = global_view(time, flux, args.period)  # root-cause
    lv = local_view(time, flux, args.period, args.duration).astype(np.float32)
    model = AstroCNN().eval()
    with torch.no_grad():
        prob = model(torch.from_numpy(gv)[None, None], torch.from_numpy(lv)[None, None])
    print(f"planet probability {prob.item():.3f}")


if __name__ == "__main__":
    main()
