"""House-price regressor that carefully casts the DataFrame features to float32 in a FeatureScaler but takes the target with df["price"].values and standardises it with float64 NumPy statistics; the per-batch nn.MSELoss silently runs in float64 (printed as "loss dtype torch.float64")
source: https://dnmtechs.com/?p=39055
reported-error: none reported (tutorial converting a pandas housing DataFrame with price, bedrooms and bathrooms columns to PyTorch tensors)
outcome: ok (silent: criterion(pred, target) at line 61 returns a float64 loss, printed as "loss dtype torch.float64")
root-cause: line 48
expect: DG008
"""
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class Config:
    n_rows: int = 200
    batch_size: int = 32
    epochs: int = 3
    lr: float = 1e-2
    seed: int = 0


def make_housing(cfg):
    rng = np.random.default_rng(cfg.seed)
    df = pd.DataFrame({"bedrooms": rng.integers(1, 6, cfg.n_rows), "bathrooms": rng.integers(1, 4, cfg.n_rows),
                       "sqft": rng.normal(1500, 400, cfg.n_rows).round(),
                       "built": pd.to_datetime(rng.integers(1950, 2020, cfg.n_rows).astype(str), format="%Y")})
    df["price"] = 50_000 + 120 * df["sqft"] + 15_000 * df["bathrooms"] + rng.normal(0, 20_000, cfg.n_rows)
    return df


class FeatureScaler:
    def fit(self, frame):
        self.mean, self.std = frame.mean(), frame.std()
        return self

    def transform(self, frame):
        return torch.from_numpy(((frame - self.mean) / self.std).to_numpy(dtype=np.float32))


def build_tensors(df):
    feats = df[["bedrooms", "bathrooms", "sqft"]].assign(age=2024 - df["built"].dt.year)
    x = FeatureScaler().fit(feats).transform(feats)
    price = df["price"].values
    y = torch.from_numpy((price - price.mean()) / price.std()).unsqueeze(-1)  # root-cause
    return x, y


def main(cfg):
    torch.manual_seed(cfg.seed)
    x, y = build_tensors(make_housing(cfg))
    loader = DataLoader(TensorDataset(x, y), batch_size=cfg.batch_size, shuffle=True)
    model = nn.Sequential(nn.Linear(x.shape[1], 16), nn.ReLU(), nn.Linear(16, 1))
    criterion, opt = nn.MSELoss(), torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        for xb, target in loader:
            pred = model(xb)
            loss = criterion(pred, target)  # fails-here
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: mse {loss.item():.4f}, loss dtype {loss.dtype}")


if __name__ == "__main__":
    main(Config())
