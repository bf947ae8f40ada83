"""Airline-passengers LSTM whose Dataset still yields float64 windows from the MinMaxScaler-scaled DataFrame; a custom collate_fn stacks them and converts to float32 before the LSTM
source: https://github.com/skorch-dev/skorch/issues/766
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.preprocessing import MinMaxScaler
from torch.utils.data import DataLoader, Dataset


class WindowDataset(Dataset):
    def __init__(self, series: pd.Series, lookback=12):
        self.values = series.to_numpy()
        self.lookback = lookback

    def __len__(self):
        return len(self.values) - self.lookback

    def __getitem__(self, i):
        window = self.values[i : i + self.lookback, None]
        return window, self.values[i + self.lookback : i + self.lookback + 1]


def collate_float32(samples):
    xs, ys = zip(*samples)
    return torch.from_numpy(np.stack(xs)).to(torch.float32), torch.from_numpy(np.stack(ys)).to(torch.float32)


class LSTMForecaster(nn.Module):
    def __init__(self, hidden_size=32):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden_size, batch_first=True)
        self.fc = nn.Linear(hidden_size, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1])


n = 144
data = pd.DataFrame({"Passengers": (np.linspace(110, 430, n) + 40 * np.sin(np.arange(n) * 2 * np.pi / 12)).round()})
sc = MinMaxScaler()
data["Passengers"] = sc.fit_transform(data[["Passengers"]].astype(float)).ravel()
loader = DataLoader(WindowDataset(data["Passengers"][:96]), batch_size=16, shuffle=True, collate_fn=collate_float32)

model = LSTMForecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    for xb, yb in loader:
        loss = nn.functional.mse_loss(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, xb.dtype, round(loss.item(), 5))
