"""Time-series forecasting service (NeuralProphet-like AR-Net with seasonality terms): the model is fitted on a GPU box and saved with save(); the CPU-only scoring worker calls load(), whose torch.load has no map_location, so restoring the pickled forecaster with its cuda:0 tensors fails
source: https://github.com/ourownstory/neural_prophet/pull/1473
reported-error: On CPU-only machines, loading gives: torch.load RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. (the load function now passes map_location to torch.load)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 40
root-cause: line 40
expect: DG010
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.serialization as serialization


# ---- time_net.py
class TimeNet(nn.Module):
    def __init__(self, n_lags=14, n_forecasts=7, n_fourier=3):
        super().__init__()
        self.ar = nn.Linear(n_lags, n_forecasts)
        self.season = nn.Linear(2 * n_fourier, n_forecasts, bias=False)
        self.n_fourier = n_fourier

    def fourier(self, t):
        k = torch.arange(1, self.n_fourier + 1) * 2 * torch.pi / 7.0
        return torch.cat([torch.sin(t[:, None] * k), torch.cos(t[:, None] * k)], 1)

    def forward(self, lags, t):
        return self.ar(lags) + self.season(self.fourier(t))


# ---- utils.py
def save(forecaster, path):
    torch.save({"model": forecaster, "config": {"n_lags": 14, "n_forecasts": 7}}, path)


def load(path):
    bundle = torch.load(path, weights_only=False)  # root-cause  # fails-here
    return bundle["model"], bundle["config"]


def make_windows(df, n_lags, n_forecasts):
    y = df["y"].to_numpy(np.float32)
    idx = range(len(y) - n_lags - n_forecasts)
    lags = np.stack([y[i:i + n_lags] for i in idx])
    return torch.from_numpy(lags), torch.tensor(list(idx), dtype=torch.float32)


if __name__ == "__main__":
    ds = pd.date_range("2024-01-01", periods=200, freq="D")
    df = pd.DataFrame({"ds": ds, "y": 10 + np.sin(np.arange(200) * 2 * np.pi / 7) + 0.1 * np.random.default_rng(0).standard_normal(200)})
    path = os.path.join(tempfile.mkdtemp(), "np-model.np")
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        save(TimeNet(), path)
    finally:
        serialization.location_tag = original
    model, cfg = load(path)
    lags, t = make_windows(df, cfg["n_lags"], cfg["n_forecasts"])
    with torch.no_grad():
        print("forecast", model(lags[-1:], t[-1:]).numpy().round(2))
