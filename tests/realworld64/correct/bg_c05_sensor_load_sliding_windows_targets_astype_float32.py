"""Hourly sensor-load LSTM forecaster of bg05 (pytorch/pytorch #76646) with the targets cast where they are cut from the windows: y = windows[:, WINDOW, :1].astype(np.float32), so nn.HuberLoss sees float32 on both sides and its backward pass runs; the float64 StandardScaler output, the sliding_window_view windows over the float64 frame and torch.from_numpy of the (now float32) arrays are kept
source: https://github.com/pytorch/pytorch/issues/76646
reported-error: (none; the fixed situation of bg05)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.preprocessing import StandardScaler
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
rng = np.random.default_rng(0)

# hourly load of one feeder: daily and weekly cycles, noise and a few spikes
index = pd.date_range("2023-01-01", periods=24 * 60, freq="h")
hours = np.arange(len(index))
load = 50 + 12 * np.sin(2 * np.pi * hours / 24) + 5 * np.sin(2 * np.pi * hours / (24 * 7)) + rng.normal(0, 1.5, len(index))
load[rng.choice(len(index), 25, replace=False)] += rng.uniform(20, 40, 25)
df = pd.DataFrame({"load": load}, index=index)
df["hour_sin"] = np.sin(2 * np.pi * df.index.hour / 24)
df["hour_cos"] = np.cos(2 * np.pi * df.index.hour / 24)

split = int(len(df) * 0.8)
scaler = StandardScaler()
scaled = df.copy()
scaled["load"] = np.concatenate([scaler.fit_transform(df[["load"]].iloc[:split]),
                                 scaler.transform(df[["load"]].iloc[split:])]).ravel()
values = scaled.to_numpy()  # float64 (T, 3)

WINDOW = 48
windows = np.lib.stride_tricks.sliding_window_view(values, WINDOW + 1, axis=0)  # (N, 3, WINDOW + 1)
windows = windows.transpose(0, 2, 1)  # (N, WINDOW + 1, 3)
X = windows[:, :WINDOW, :].astype(np.float32)
y = windows[:, WINDOW, :1].astype(np.float32)
n_train = split - WINDOW
train_ds = TensorDataset(torch.from_numpy(X[:n_train]), torch.from_numpy(y[:n_train]))
valid_ds = TensorDataset(torch.from_numpy(X[n_train:]), torch.from_numpy(y[n_train:]))
train_loader = DataLoader(train_ds, batch_size=64, shuffle=True)
valid_loader = DataLoader(valid_ds, batch_size=256)


class LoadForecaster(nn.Module):
    def __init__(self, n_features=3, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(n_features, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


model = LoadForecaster()
criterion = nn.HuberLoss(delta=2.0)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
print("X", X.dtype, "y", y.dtype)
for epoch in range(3):
    model.train()
    for xb, yb in train_loader:
        loss = criterion(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        errors = torch.cat([(model(xb) - yb).abs() for xb, yb in valid_loader])
    print(f"epoch {epoch}: train huber {loss.item():.4f} valid MAE {errors.mean().item() * scaler.scale_[0]:.3f} kW")
