"""Customer-churn classifier built from an in-memory pandas DataFrame with an object "plan" column, a categorical "region" and a signup datetime; preprocess() one-hot encodes with pd.get_dummies and returns .astype(float) (float64), and the DataFrameDataset hands that to a float32 MLP
source: https://duoke360.com/post/34261
reported-error: RuntimeError: mat1 and mat2 must have the same dtype (DataFrame values converted without an explicit float32 cast)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 51
root-cause: line 32
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def make_frame(n=120, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "plan": rng.choice(["basic", "pro", "team"], n),
        "region": pd.Categorical(rng.choice(["eu", "us", "apac"], n)),
        "signup": pd.to_datetime("2023-01-01") + pd.to_timedelta(rng.integers(0, 365, n), unit="D"),
        "monthly_fee": rng.uniform(5, 50, n).round(2),
        "tickets": rng.poisson(2, n),
        "churned": rng.integers(0, 2, n),
    })


def preprocess(df):
    out = df.drop(columns=["churned", "signup"]).copy()
    out["tenure_days"] = (pd.Timestamp("2024-01-01") - df["signup"]).dt.days
    out["monthly_fee"] = (out["monthly_fee"] - out["monthly_fee"].mean()) / out["monthly_fee"].std()
    out = pd.get_dummies(out, columns=["plan", "region"])
    return out.astype(float), df["churned"].to_numpy()  # root-cause


class DataFrameDataset(Dataset):
    def __init__(self, features, labels):
        self.x = torch.tensor(features.values)
        self.y = torch.tensor(labels)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def train(model, loader, epochs=2):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        for xb, yb in loader:
            logits = model(xb)  # fails-here
            loss = nn.functional.cross_entropy(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    feats, labels = preprocess(make_frame())
    model = nn.Sequential(nn.Linear(feats.shape[1], 32), nn.ReLU(), nn.Linear(32, 2))
    train(model, DataLoader(DataFrameDataset(feats, labels), batch_size=32, shuffle=True))
