"""Tabular regression whose preprocessing is an sklearn ColumnTransformer (StandardScaler + OneHotEncoder) over a pandas frame; the transformed matrix is float64 and the helper wraps it with torch.from_numpy before the float32 MLP
source: https://duoke360.com/post/34176
reported-error: RuntimeError: Found dtype Double but expected Float / Expected object of scalar type Float but got scalar type Double for argument #2 'mat1'
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 47
root-cause: line 36
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.compose import ColumnTransformer
from sklearn.preprocessing import OneHotEncoder, StandardScaler


def make_frame(n=200, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "area": rng.uniform(30, 200, n),
            "rooms": rng.integers(1, 6, n),
            "city": rng.choice(["berlin", "paris", "rome"], n),
            "price": rng.uniform(100, 900, n),
        }
    )


def build_preprocessor():
    return ColumnTransformer(
        [("num", StandardScaler(), ["area", "rooms"]), ("cat", OneHotEncoder(sparse_output=False), ["city"])]
    )


def to_tensors(df, pre, fit=False):
    X = pre.fit_transform(df) if fit else pre.transform(df)
    features = torch.from_numpy(X)  # root-cause
    target = torch.tensor(df["price"].to_numpy() / 1000.0, dtype=torch.float32).unsqueeze(1)
    return features, target


class Regressor(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.body(x)  # fails-here


def train(model, X, y, epochs=3):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        loss = nn.functional.mse_loss(model(X), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    df = make_frame()
    pre = build_preprocessor()
    X, y = to_tensors(df, pre, fit=True)
    train(Regressor(X.shape[1]), X, y)
