"""Graph weather forecaster (graph_weather-style encoder/processor/decoder on a lat/lon grid): the data helper builds the ERA5-like feature tensor with dtype=torch.float64, as the reporter tried, and the float32 encoder's first Linear receives double features
source: https://github.com/openclimatefix/graph_weather/issues/49
reported-error: model(features) -> RuntimeError: expected scalar type Float but found Half (the reporter then changed torch.randn(..., dtype=torch.float64) and got the same kind of mismatch)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 30
root-cause: line 20
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


# ---- graph_weather/data/utils.py
def make_lat_lons(step=30):
    return [(lat, lon) for lat in range(-90, 90, step) for lon in range(0, 360, step)]


def sample_features(lat_lons, n_vars=78, batch=2, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn((batch, len(lat_lons), n_vars), dtype=torch.float64, generator=g)  # root-cause


# ---- graph_weather/models/layers/encoder.py
class Encoder(nn.Module):
    def __init__(self, input_dim, hidden_dim=32):
        super().__init__()
        self.node_mlp = nn.Sequential(nn.Linear(input_dim, hidden_dim), nn.SiLU(), nn.Linear(hidden_dim, hidden_dim))

    def forward(self, features):
        return self.node_mlp(features)  # fails-here


class Processor(nn.Module):
    def __init__(self, lat_lons, hidden_dim=32):
        super().__init__()
        coords = np.radians(np.asarray(lat_lons, dtype=np.float32))
        dist = np.abs(coords[:, None, :] - coords[None, :, :]).sum(-1)
        adj = (dist < 0.6).astype(np.float32)
        self.register_buffer("adj", torch.from_numpy(adj / adj.sum(1, keepdims=True)))
        self.mlp = nn.Linear(hidden_dim, hidden_dim)

    def forward(self, h):
        return h + torch.relu(self.mlp(self.adj @ h))


class GraphWeatherForecaster(nn.Module):
    def __init__(self, lat_lons, feature_dim=78, aux_dim=0, hidden_dim=32):
        super().__init__()
        self.encoder = Encoder(feature_dim + aux_dim, hidden_dim)
        self.processor = Processor(lat_lons, hidden_dim)
        self.decoder = nn.Linear(hidden_dim, feature_dim)

    def forward(self, features):
        return features + self.decoder(self.processor(self.encoder(features)))


# ---- graph_weather/models/losses.py
class NormalizedMSELoss(nn.Module):
    def __init__(self, lat_lons, feature_variance):
        super().__init__()
        lat = torch.tensor([ll[0] for ll in lat_lons], dtype=torch.float32)
        self.register_buffer("weights", torch.cos(torch.deg2rad(lat)).clamp_min(0.05))
        self.register_buffer("feature_variance", feature_variance)

    def forward(self, pred, target):
        err = (pred - target) ** 2 / self.feature_variance
        return (err.mean(-1) * self.weights).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    lat_lons = make_lat_lons()
    model = GraphWeatherForecaster(lat_lons, aux_dim=0)
    features = sample_features(lat_lons)
    criterion = NormalizedMSELoss(lat_lons=lat_lons, feature_variance=torch.rand(78) + 0.5)
    out = model(features)
    loss = criterion(out, features)
    loss.backward()
    print("loss", loss.item())
