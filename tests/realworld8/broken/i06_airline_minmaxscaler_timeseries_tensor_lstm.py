"""Airline-passengers forecasting: the pandas column is scaled with sklearn's MinMaxScaler, windowed by a TimeSeriesTensor helper into numpy arrays and wrapped with torch.from_numpy, so the LSTM receives float64 sequences
source: https://github.com/skorch-dev/skorch/issues/766
reported-error: TypeError: fit() missing 1 required positional argument: 'y' (the issue's own error; its posted data code scales the column with .astype(np.float), i.e. float64, the path this script follows into the LSTM)
outcome: ValueError: RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert input: input.to(torch.float32), or convert model: model.to(torch.float64) at line 42
root-cause: line 31
expect: DG004
"""
from collections import UserDict

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.preprocessing import MinMaxScaler


def load_airline(n=144):
    months = pd.date_range("1949-01", periods=n, freq="MS")
    trend = np.linspace(110, 430, n)
    season = 40 * np.sin(np.arange(n) * 2 * np.pi / 12)
    return pd.DataFrame({"Month": months, "Passengers": (trend + season).round().astype(int)})


class TimeSeriesTensor(UserDict):
    def __init__(self, dataset: pd.DataFrame, target: str, H: int = 1, lookback: int = 12):
        super().__init__()
        self.dataset = dataset
        values = dataset[target].to_numpy()
        windows = np.stack([values[i : i + lookback] for i in range(len(values) - lookback - H + 1)])
        labels = np.stack([values[i + lookback : i + lookback + H] for i in range(len(values) - lookback - H + 1)])
        self["X"] = torch.from_numpy(windows[..., None])  # root-cause
        self["target"] = torch.from_numpy(labels).float()


class LSTMForecaster(nn.Module):
    def __init__(self, hidden_size=32, horizon=1):
        super().__init__()
        self.lstm = nn.LSTM(input_size=1, hidden_size=hidden_size, batch_first=True)
        self.fc = nn.Linear(hidden_size, horizon)

    def forward(self, x):
        out, _ = self.lstm(x)  # fails-here
        return self.fc(out[:, -1])


data = load_airline()
sc = MinMaxScaler()
sc.fit(data[["Passengers"]])
data["Passengers"] = sc.transform(data[["Passengers"]].astype(float))
train_size = int(0.67 * len(data))
train = TimeSeriesTensor(data[:train_size], "Passengers")

model = LSTMForecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.MSELoss()
for epoch in range(5):
    pred = model(train["X"])
    loss = criterion(pred, train["target"])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())
