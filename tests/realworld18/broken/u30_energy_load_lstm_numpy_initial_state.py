"""Hourly energy-load forecaster: features come from pandas resample/rolling and are cast to float32 correctly, but the LSTM wrapper's init_hidden() draws h0/c0 with np.random.randn and wraps them with torch.tensor, so the initial states are float64 while the LSTM weights are float32
source: https://github.com/pytorch/pytorch/issues/63322
reported-error: self.h0 = torch.tensor(np.random.randn(2, self.batch_size, self.hidden_size)).to(self.device) (lstm's input h0 and c0 built with numpy)
outcome: RuntimeError: get_mkldnn_dtype: unsupported data type at line 45
root-cause: line 40
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


def load_series(seed=0):
    rng = np.random.default_rng(seed)
    idx = pd.date_range("2024-01-01", periods=24 * 60 * 4, freq="15min")
    load = 50 + 10 * np.sin(np.arange(len(idx)) * 2 * np.pi / 96) + rng.normal(0, 2, len(idx))
    df = pd.DataFrame({"load": load}, index=idx).resample("1h").mean()
    df["roll_mean_24"] = df["load"].rolling(24, min_periods=1).mean()
    df["roll_std_24"] = df["load"].rolling(24, min_periods=1).std().fillna(0.0)
    df["hour"] = df.index.hour / 23.0
    return df


def make_windows(df, lookback=24):
    values = ((df - df.mean()) / (df.std() + 1e-6)).to_numpy(dtype=np.float32)
    X = np.stack([values[i:i + lookback] for i in range(len(values) - lookback)])
    y = values[lookback:, 0]
    return torch.from_numpy(X), torch.from_numpy(y)


class LoadForecaster(nn.Module):
    def __init__(self, n_feat=4, hidden=32, layers=2):
        super().__init__()
        self.hidden, self.layers = hidden, layers
        self.lstm = nn.LSTM(n_feat, hidden, layers, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def init_hidden(self, batch_size):
        h0 = torch.tensor(np.random.randn(self.layers, batch_size, self.hidden))  # root-cause
        c0 = torch.tensor(np.random.randn(self.layers, batch_size, self.hidden))
        return h0, c0

    def forward(self, x):
        out, _ = self.lstm(x, self.init_hidden(x.size(0)))  # fails-here
        return self.head(out[:, -1]).squeeze(-1)


X, y = make_windows(load_series())
model = LoadForecaster()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    for i in range(0, len(X), 64):
        loss = nn.functional.mse_loss(model(X[i:i + 64]), y[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "loss", round(loss.item(), 4))
