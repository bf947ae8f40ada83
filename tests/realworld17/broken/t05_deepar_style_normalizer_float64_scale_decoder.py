"""Autoregressive forecaster with an identity TargetNormalizer whose fit() stores center_/scale_ as np.zeros/np.ones (float64); decode() rescales each float32 prediction with torch.from_numpy(scale_) and feeds it back into the float32 decoder, which then gets Double input
source: https://github.com/sktime/pytorch-forecasting/issues/998
reported-error: dtype issue in TorchNormalizer(method="identity"): center_ and scale_ are float64, the predicted values become float64 during decode_autoregressive
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 38
root-cause: line 20
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


class TargetNormalizer:
    def __init__(self, method="identity"):
        self.method = method

    def fit(self, y):
        if self.method == "identity":
            self.center_ = np.zeros(y.shape[:-1])
            self.scale_ = np.ones(y.shape[:-1])  # root-cause
        else:
            self.center_ = y.mean(-1)
            self.scale_ = y.std(-1)
        return self

    def inverse(self, pred):
        scale = torch.from_numpy(self.scale_).unsqueeze(-1)
        center = torch.from_numpy(self.center_).unsqueeze(-1)
        return pred * scale + center


class Decoder(nn.Module):
    def __init__(self, context=12):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(context, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, window):
        return self.net(window)  # fails-here


def decode_autoregressive(decoder, normalizer, context, horizon):
    window = context.clone()
    outs = []
    for _ in range(horizon):
        step = decoder(window)
        step = normalizer.inverse(step)
        outs.append(step)
        window = torch.cat([window[:, 1:], step], dim=1)
    return torch.cat(outs, dim=1)


series = np.sin(np.linspace(0, 20, 200))[None, :].repeat(4, 0).astype(np.float32)
normalizer = TargetNormalizer().fit(series)
decoder = Decoder()
context = torch.from_numpy(series[:, -12:])
forecast = decode_autoregressive(decoder, normalizer, context, horizon=6)
print("forecast", tuple(forecast.shape), forecast.dtype)
