"""Hourly sensor-load forecasting with an LSTM: a pandas series with datetime features is scaled by sklearn's StandardScaler (float64), cut into windows with np.lib.stride_tricks.sliding_window_view, the inputs are cast to float32 but the next-step targets keep float64, and the robust nn.HuberLoss (chosen over MSELoss for the load spikes) mixes a float32 prediction with a float64 target: the forward pass promotes to float64 and the backward pass fails, while SmoothL1Loss and MSELoss on the same batch would go through
source: https://github.com/pytorch/pytorch/issues/76646
reported-error: "torch.nn.HuberLoss backwards unexpectedly fail with error message Found dtype Float but expected Double" with one float64 and one float32 argument, "it should succeed to backward like SmoothL1Loss" (still open; a 2026 comment reports it on the latest torch and points to the mse_loss fix)
outcome: RuntimeError: Found dtype Double but expected Float at line 66
root-cause: line 38
expect: DG008
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
y = windows[:, WINDOW, :1]  # root-cause
n_train = split - WINDOW
train_ds = TensorDataset(torch.from_numpy(X[:n_train]), torch.from_numpy(y[:n_train]))  # root-cause-alt
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
        loss.backward()  # fails-here
        optimizer.step()
    model.eval()
    with torch.no_grad():
        errors = torch.cat([(model(xb) - yb).abs() for xb, yb in valid_loader])
    print(f"epoch {epoch}: train huber {loss.item():.4f} valid MAE {errors.mean().item() * scaler.scale_[0]:.3f} kW")
