"""F1 tyre-degradation bundle saved as the review suggested: the StandardScaler's mean_ and scale_ are stored as tensors next to the state_dict, so torch.load with the weights_only=True default reads it and the scaler is rebuilt at load time
source: https://github.com/VforVitorio/F1-StratLab/pull/378
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.preprocessing import StandardScaler

FEATURES = ["tyre_life", "track_temp", "fuel_load"]
rng = np.random.default_rng(0)
df = pd.DataFrame({"tyre_life": rng.integers(1, 40, 100), "track_temp": rng.normal(38, 5, 100), "fuel_load": rng.uniform(5, 100, 100)})
scaler = StandardScaler().fit(df[FEATURES])
model = nn.Sequential(nn.Linear(len(FEATURES), 16), nn.ReLU(), nn.Linear(16, 1))

bundle_path = os.path.join(tempfile.mkdtemp(), "tire_global_bundle.pt")
torch.save({
    "state_dict": model.state_dict(),
    "scaler_mean": torch.from_numpy(scaler.mean_),
    "scaler_scale": torch.from_numpy(scaler.scale_),
    "features": FEATURES,
}, bundle_path)

bundle = torch.load(bundle_path, map_location="cpu")
restored = StandardScaler()
restored.mean_ = bundle["scaler_mean"].numpy()
restored.scale_ = bundle["scaler_scale"].numpy()
restored.n_features_in_ = len(bundle["features"])
reloaded = nn.Sequential(nn.Linear(len(FEATURES), 16), nn.ReLU(), nn.Linear(16, 1))
reloaded.load_state_dict(bundle["state_dict"])
x = torch.tensor(restored.transform(df[bundle["features"]].to_numpy()), dtype=torch.float32)
with torch.no_grad():
    print("predictions", reloaded(x)[:3].squeeze(-1).tolist())
