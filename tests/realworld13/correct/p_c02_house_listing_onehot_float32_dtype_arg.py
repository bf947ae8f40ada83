"""Listing-price classifier with OneHotEncoder(sparse_output=False, dtype=np.float32) and a StandardScaler fitted on float32 columns, so the np.hstack matrix is float32; the labels go through torch.as_tensor(..., dtype=torch.long)
source: https://github.com/ludwig-ai/ludwig/pull/3242
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import io

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(1)
rows = ["zoning,street,lot_area,year_built,expensive"]
for _ in range(200):
    rows.append(f"{rng.choice(['RL', 'RM', 'FV'])},{rng.choice(['Pave', 'Grvl'])},"
                f"{rng.integers(2000, 20000)},{rng.integers(1900, 2010)},{rng.integers(0, 2)}")
df = pd.read_csv(io.StringIO("\n".join(rows)))


def build_features(train_df, test_df):
    enc = OneHotEncoder(sparse_output=False, handle_unknown="ignore", dtype=np.float32)
    scaler = StandardScaler()
    num_tr = train_df[["lot_area", "year_built"]].to_numpy(dtype=np.float32)
    num_te = test_df[["lot_area", "year_built"]].to_numpy(dtype=np.float32)
    tr = np.hstack([enc.fit_transform(train_df[["zoning", "street"]]), scaler.fit_transform(num_tr)])
    te = np.hstack([enc.transform(test_df[["zoning", "street"]]), scaler.transform(num_te)])
    return tr, te


train_df, test_df = train_test_split(df, test_size=0.25, random_state=0)
X_tr, X_te = build_features(train_df, test_df)
assert X_tr.dtype == np.float32
y_tr = torch.as_tensor(train_df["expensive"].to_numpy(), dtype=torch.long)
y_te = torch.as_tensor(test_df["expensive"].to_numpy(), dtype=torch.long)
model = nn.Sequential(nn.Linear(X_tr.shape[1], 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(5):
    for xb, yb in DataLoader(TensorDataset(torch.from_numpy(X_tr), y_tr), batch_size=32, shuffle=True):
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
with torch.no_grad():
    acc = (model(torch.from_numpy(X_te)).argmax(1) == y_te).sum().item() / len(y_te)
print(f"test accuracy {acc:.3f}")
