"""AR-Net style forecaster on a pandas frame: both the lag windows and the forecast targets are cast with .astype(np.float32), so MSELoss compares float32 with float32 (the normalisation itself runs in float64 on purpose)
source: https://github.com/ourownstory/neural_prophet/issues/228
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


def make_df(periods=400, seed=0):
    rng = np.random.default_rng(seed)
    ds = pd.date_range("2020-01-01", periods=periods, freq="D")
    t = np.arange(periods)
    y = 10 + 0.01 * t + 2 * np.sin(2 * np.pi * t / 7) + rng.normal(0, 0.3, periods)
    return pd.DataFrame({"ds": ds, "y": y})


class TimeDataset(torch.utils.data.Dataset):
    def __init__(self, df, n_lags=14, n_forecasts=1):
        y = df["y"].values
        self.mean, self.std = y.mean(), y.std()
        norm = (y - self.mean) / self.std
        idx = np.arange(n_lags, len(y) - n_forecasts + 1)
        self.lags = np.stack([norm[i - n_lags:i] for i in idx]).astype(np.float32)
        self.targets = np.stack([norm[i:i + n_forecasts] for i in idx]).astype(np.float32)

    def __len__(self):
        return len(self.lags)

    def __getitem__(self, i):
        return torch.from_numpy(self.lags[i]), torch.from_numpy(self.targets[i])


class ARNet(nn.Module):
    def __init__(self, n_lags=14, n_forecasts=1, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_lags, hidden), nn.ReLU(), nn.Linear(hidden, n_forecasts))

    def forward(self, lags):
        return self.net(lags)


class NeuralForecaster:
    def __init__(self, n_lags=14, epochs=3, lr=1e-2):
        self.model = ARNet(n_lags)
        self.epochs, self.lr, self.n_lags = epochs, lr, n_lags

    def fit(self, df):
        ds = TimeDataset(df, self.n_lags)
        loader = torch.utils.data.DataLoader(ds, batch_size=32, shuffle=True)
        criterion = nn.MSELoss()
        opt = torch.optim.SGD(self.model.parameters(), lr=self.lr, momentum=0.9)
        for epoch in range(self.epochs):
            for lags, target in loader:
                pred = self.model(lags)
                loss = criterion(pred, target)
                opt.zero_grad()
                loss.backward()
                opt.step()
            print(f"epoch {epoch}: loss {loss.item():.4f} loss dtype {loss.dtype}")
        return self


if __name__ == "__main__":
    NeuralForecaster().fit(make_df())
