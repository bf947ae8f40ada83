"""Customer-churn classifier from an in-memory DataFrame (object, categorical and datetime columns, pd.get_dummies) whose preprocess() returns to_numpy(dtype=np.float32), and whose collate_fn stacks rows with torch.as_tensor(..., dtype=torch.float32) and moves the batch .to(device)
source: https://duoke360.com/post/34261
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
from functools import partial

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def make_frame(n=120, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "plan": rng.choice(["basic", "pro", "team"], n),
        "region": pd.Categorical(rng.choice(["eu", "us", "apac"], n)),
        "signup": pd.to_datetime("2023-01-01") + pd.to_timedelta(rng.integers(0, 365, n), unit="D"),
        "monthly_fee": rng.uniform(5, 50, n).round(2),
        "churned": rng.integers(0, 2, n),
    })


def preprocess(df):
    out = df.drop(columns=["churned", "signup"]).copy()
    out["tenure_days"] = (pd.Timestamp("2024-01-01") - df["signup"]).dt.days
    out["monthly_fee"] = (out["monthly_fee"] - out["monthly_fee"].mean()) / out["monthly_fee"].std()
    out = pd.get_dummies(out, columns=["plan", "region"])
    return out.to_numpy(dtype=np.float32), df["churned"].to_numpy()


def collate(rows, device):
    feats = torch.as_tensor(np.stack([r[0] for r in rows]), dtype=torch.float32)
    labels = torch.as_tensor([r[1] for r in rows], dtype=torch.long)
    return feats.to(device), labels.to(device)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    feats, labels = preprocess(make_frame())
    rows = list(zip(feats, labels))
    loader = DataLoader(rows, batch_size=32, shuffle=True, collate_fn=partial(collate, device=device))
    model = nn.Sequential(nn.Linear(feats.shape[1], 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(2):
        for xb, yb in loader:
            loss = nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
