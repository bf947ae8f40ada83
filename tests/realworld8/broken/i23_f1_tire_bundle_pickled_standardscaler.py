"""F1 tyre-degradation model bundle: training saves the LSTM state_dict together with the fitted sklearn StandardScaler in one .pt, and the hold-out evaluation reloads it with torch.load(bundle_path, map_location="cpu") under the weights_only=True default
source: https://github.com/VforVitorio/F1-StratLab/pull/378
reported-error: The bundle contains a pickled sklearn StandardScaler, which requires weights_only=False in torch 2.5.0 (review of torch.load(bundle_path, map_location="cpu", weights_only=False))
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL sklearn.preprocessing._data.StandardScaler was not an allowed global by default. ... at line 59
root-cause: line 50
expect: DG011
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.preprocessing import StandardScaler

FEATURES = ["tyre_life", "track_temp", "fuel_load", "stint_lap"]


def make_laps(n=120, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"tyre_life": rng.integers(1, 40, n), "track_temp": rng.normal(38, 5, n), "fuel_load": rng.uniform(5, 100, n), "stint_lap": rng.integers(1, 30, n)})
    df["lap_delta"] = 0.04 * df["tyre_life"] + 0.01 * df["track_temp"] - 0.02 * df["fuel_load"] + rng.normal(0, 0.1, n)
    return df


class TireDegModel(nn.Module):
    def __init__(self, n_features=len(FEATURES), hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def train_and_save(bundle_path):
    df = make_laps()
    scaler = StandardScaler().fit(df[FEATURES].fillna(0))
    x = torch.tensor(scaler.transform(df[FEATURES].fillna(0)), dtype=torch.float32)
    y = torch.tensor(df["lap_delta"].to_numpy(), dtype=torch.float32)
    model = TireDegModel()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(50):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    bundle = {
        "state_dict": model.state_dict(),
        "scaler": scaler,  # root-cause
        "features": FEATURES,
    }
    torch.save(bundle, bundle_path)


def load_global_bundle(bundle_path):
    if not os.path.exists(bundle_path):
        return None
    bundle = torch.load(bundle_path, map_location="cpu")  # root-cause-alt # fails-here
    model = TireDegModel()
    model.load_state_dict(bundle["state_dict"])
    return model.eval(), bundle["scaler"], bundle["features"]


def tire_holdout(bundle_path):
    model, scaler, features = load_global_bundle(bundle_path)
    test = make_laps(seed=1)
    x = torch.tensor(scaler.transform(test[features].fillna(0)), dtype=torch.float32)
    with torch.no_grad():
        mae = (model(x) - torch.tensor(test["lap_delta"].to_numpy(), dtype=torch.float32)).abs().mean()
    print(f"hold-out MAE {mae.item():.3f}s")


if __name__ == "__main__":
    path = os.path.join(tempfile.mkdtemp(), "tire_global_bundle.pt")
    train_and_save(path)
    tire_holdout(path)
