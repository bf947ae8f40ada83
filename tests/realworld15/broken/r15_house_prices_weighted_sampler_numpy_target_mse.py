"""House-price regressor trained through a WeightedRandomSampler (weights from NumPy price-bucket frequencies); the Dataset keeps the log-price target as df["log_price"].to_numpy(), default_collate turns the float64 NumPy scalars into a float64 batch, and nn.MSELoss silently returns a float64 loss
source: https://github.com/the-database/traiNNer-redux/pull/16
reported-error: none raised (losses computed in a wider dtype until explicitly cast to float32)
outcome: ok (silent: criterion(pred, target) at line 45 returns a float64 loss, printed as "loss dtype torch.float64")
root-cause: line 18
expect: DG008
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, WeightedRandomSampler


class HouseDataset(Dataset):
    def __init__(self, df):
        self.x = df[["rooms", "area", "age"]].to_numpy(np.float32)
        self.y = df["log_price"].to_numpy()  # root-cause

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def bucket_sampler(df, n_buckets=4):
    buckets = pd.qcut(df["log_price"], n_buckets, labels=False).to_numpy()
    freq = np.bincount(buckets, minlength=n_buckets)
    weights = 1.0 / freq[buckets]
    return WeightedRandomSampler(torch.from_numpy(weights), num_samples=len(df), replacement=True)


rng = np.random.default_rng(0)
df = pd.DataFrame({"rooms": rng.integers(1, 7, 300), "area": rng.normal(100, 30, 300), "age": rng.integers(0, 80, 300)})
df["log_price"] = np.log(2000 * df["area"] + 15000 * df["rooms"] - 300 * df["age"] + 50000)
df[["rooms", "area", "age"]] = (df[["rooms", "area", "age"]] - df[["rooms", "area", "age"]].mean()) / df[["rooms", "area", "age"]].std()

loader = DataLoader(HouseDataset(df), batch_size=32, sampler=bucket_sampler(df))
model = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1))
criterion = nn.MSELoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for x, target in loader:
    pred = model(x).squeeze(-1)
    loss = criterion(pred, target)  # fails-here
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", round(loss.item(), 5), "loss dtype", loss.dtype)
