"""Load-forecasting LSTM whose StandardScaler-style normalisation runs in NumPy float64 but whose transformed series is cast with .astype('float32') before the sliding windows are cut, so TensorDataset batches are float32 for the LSTM and the MSE target
source: https://www.adrian.idv.hk/2020-12-22-lstm/
reported-error: none (correct idiom: timeseries = scaler.transform(df).astype('float32'))
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

NUM_EPOCHS = 2
WINSIZE = 12
BATCHSIZE = 16


class StandardScaler:
    def fit(self, a):
        self.mean_, self.scale_ = a.mean(0), a.std(0)
        return self

    def transform(self, a):
        return (np.asarray(a) - self.mean_) / self.scale_


def sliding_window(a, win_size):
    shape = (a.shape[0] - win_size + 1, win_size) + a.shape[-1:]
    strides = (a.strides[0],) + a.strides
    return np.lib.stride_tricks.as_strided(a, shape=shape, strides=strides)


class Model(nn.Module):
    def __init__(self, input_dim=1, hidden_dim=16):
        super().__init__()
        self.lstm = nn.LSTM(input_dim, hidden_dim, batch_first=True)
        self.linear = nn.Linear(hidden_dim, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.linear(out[:, -1, :])


if __name__ == "__main__":
    torch.manual_seed(0)
    t = np.arange(400)
    df = pd.DataFrame({"ValueColumn": 50 + 10 * np.sin(t / 24 * 2 * np.pi) + np.random.default_rng(0).normal(0, 1, len(t))})
    cutoff = int(len(df) * 0.8)
    scaler = StandardScaler().fit(df.iloc[:cutoff][["ValueColumn"]].to_numpy())
    timeseries = scaler.transform(df[["ValueColumn"]]).astype("float32")
    windows = np.ascontiguousarray(sliding_window(timeseries, WINSIZE + 1))
    X, y = torch.from_numpy(windows[:, :-1, :]), torch.from_numpy(windows[:, -1, :])
    loader = DataLoader(TensorDataset(X, y), batch_size=BATCHSIZE, shuffle=True)
    model = Model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(NUM_EPOCHS):
        for xb, yb in loader:
            loss = nn.functional.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f} dtype {loss.dtype}")
