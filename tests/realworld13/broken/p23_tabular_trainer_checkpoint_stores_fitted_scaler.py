"""Tabular regression trainer that keeps the fitted sklearn StandardScaler inside its checkpoint so inference can reuse it; the separate predict() step reloads the file with the default torch.load (weights_only=True) and fails on the sklearn class
source: https://github.com/constantinpape/torch-em/pull/488
reported-error: Weights only load failed (checkpoints holding non-tensor Python objects need weights_only=False)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL sklearn.preprocessing._data.StandardScaler was not an allowed global by default. ... at line 33
root-cause: line 28
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from sklearn.preprocessing import StandardScaler


def fit(X, y, ckpt_path, epochs=30):
    scaler = StandardScaler().fit(X)
    Xt = torch.tensor(scaler.transform(X), dtype=torch.float32)
    yt = torch.tensor(y, dtype=torch.float32).unsqueeze(1)
    model = nn.Sequential(nn.Linear(X.shape[1], 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(epochs):
        loss = nn.functional.mse_loss(model(Xt), yt)
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"model_state": model.state_dict(), "scaler": scaler, "n_features": X.shape[1]}, ckpt_path)  # root-cause
    return loss.item()


def predict(ckpt_path, X_new):
    ckpt = torch.load(ckpt_path)  # fails-here
    model = nn.Sequential(nn.Linear(ckpt["n_features"], 16), nn.ReLU(), nn.Linear(16, 1))
    model.load_state_dict(ckpt["model_state"])
    x = torch.tensor(ckpt["scaler"].transform(X_new), dtype=torch.float32)
    with torch.no_grad():
        return model(x).squeeze(1).numpy()


rng = np.random.default_rng(5)
X = rng.normal(loc=[10, 200, -3], scale=[2, 50, 1], size=(300, 3))
y = X @ np.array([0.5, 0.01, -1.0]) + rng.normal(0, 0.1, 300)
path = os.path.join(tempfile.mkdtemp(), "best_checkpoint.pt")
print("train mse", fit(X, y, path))
print("predictions", predict(path, X[:3]).round(2))
