"""Churn MLP on a pandas frame: pd.get_dummies(..., dtype=np.float32) gives float indicator columns, the 0/1 churn target is converted to float32 for BCEWithLogitsLoss, and the split comes from torch.utils.data.random_split
source: https://cloud.baidu.com/article/2793841
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, random_split

rng = np.random.default_rng(0)
df = pd.DataFrame({"contract": rng.choice(["monthly", "one_year", "two_year"], 200),
                   "payment": rng.choice(["card", "bank", "check"], 200),
                   "churn": rng.integers(0, 2, 200)})
X = torch.from_numpy(pd.get_dummies(df.drop(columns="churn"), dtype=np.float32).to_numpy())
y = torch.from_numpy(df["churn"].to_numpy().astype(np.float32))
train_ds, val_ds = random_split(TensorDataset(X, y), [160, 40], generator=torch.Generator().manual_seed(0))
model = nn.Sequential(nn.Linear(X.shape[1], 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.BCEWithLogitsLoss()
for epoch in range(3):
    for xb, yb in DataLoader(train_ds, batch_size=32, shuffle=True):
        loss = loss_fn(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "loss", loss.item())
