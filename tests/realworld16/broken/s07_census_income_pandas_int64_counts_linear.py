"""County income regressor from a pandas frame of degree counts: get_loaders(cfg) wraps df[feature_cols].values (int64 counts) with torch.tensor, and the Long batches reach the float32 nn.Linear; the target is converted, the features are not
source: https://openillumi.com/en/en-fix-mat1-mat2-dtype-error-pytorch
reported-error: RuntimeError: mat1 and mat2 must have the same dtype
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float at line 41
root-cause: line 28
expect: DG005
"""
from types import SimpleNamespace

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def load_frame(n=120, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "bachelor_degree_numbers_2016_2020": rng.integers(100, 5000, n),
        "associate_degree_numbers_2016_2020": rng.integers(50, 3000, n),
    })
    df["per_capita_personal_income_2020"] = 20000 + 3.0 * df.iloc[:, 0] + rng.normal(0, 500, n)
    return df


def get_loaders(cfg, df):
    X = torch.tensor(df[cfg.feature_cols].values)  # root-cause
    y = torch.tensor(df[cfg.target_col].values, dtype=torch.float32).unsqueeze(1) / 1e4
    return DataLoader(TensorDataset(X, y), batch_size=cfg.batch_size, shuffle=True)


def get_model(cfg):
    return nn.Sequential(nn.Linear(len(cfg.feature_cols), 16), nn.ReLU(), nn.Linear(16, 1))


def train(cfg, model, loader):
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        for xb, yb in loader:
            pred = model(xb)  # fails-here
            loss = nn.functional.mse_loss(pred, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print("epoch", epoch, "loss", loss.item())


cfg = SimpleNamespace(feature_cols=["bachelor_degree_numbers_2016_2020", "associate_degree_numbers_2016_2020"],
                      target_col="per_capita_personal_income_2020", batch_size=16, lr=1e-3, epochs=2)
train(cfg, get_model(cfg), get_loaders(cfg, load_frame()))
