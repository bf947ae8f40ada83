"""Electric-load forecaster on pandas rolling-window features: the inputs are cast to float32 in make_windows(), but the next-hour target is torch.from_numpy of a float64 column, so MSELoss silently returns a float64 loss and the whole backward runs partly in double
source: https://github.com/astroautomata/PySR/pull/1276
reported-error: none (the PR notes a Float64 literal silently promotes a Float32 loss to Float64)
outcome: ok (silent: criterion(pred, target) at line 52 returns a float64 loss, printed as "loss dtype torch.float64")
root-cause: line 35
expect: DG008
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def load_series(n=400, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    return pd.DataFrame({"load": 50 + 10 * np.sin(2 * np.pi * t / 24) + rng.normal(0, 1, n)})


def make_windows(df, window=24):
    feats = pd.concat({
        "mean": df["load"].rolling(window).mean(),
        "std": df["load"].rolling(window).std(),
        "last": df["load"],
    }, axis=1)
    feats["target"] = df["load"].shift(-1)
    feats = feats.dropna()
    return feats[["mean", "std", "last"]].to_numpy(np.float32), feats["target"].to_numpy()


class WindowDataset(Dataset):
    def __init__(self, X, y):
        self.X = torch.from_numpy(X)
        self.y = torch.from_numpy(y)  # root-cause

    def __len__(self):
        return len(self.X)

    def __getitem__(self, i):
        return self.X[i], self.y[i]


model = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1))
criterion = nn.MSELoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
X, y = make_windows(load_series())
loader = DataLoader(WindowDataset(X, y), batch_size=32, shuffle=True)
for epoch in range(2):
    for xb, target in loader:
        pred = model(xb).squeeze(-1)
        loss = criterion(pred, target)  # fails-here
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "loss", round(loss.item(), 3), "loss dtype", loss.dtype)
