"""Listing-price classifier: sklearn train_test_split, OneHotEncoder(sparse_output=False) on the categorical columns and StandardScaler on the numeric ones, glued with np.hstack in build_features(); the float64 matrix becomes torch.from_numpy batches for a float32 MLP
source: https://github.com/ludwig-ai/ludwig/pull/3242
reported-error: RuntimeError: mat1 and mat2 must have the same dtype (one-hot encoder output reaching dense layers)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 49
root-cause: line 33
expect: DG004
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
rows = ["zoning,street,neighborhood,lot_area,year_built,expensive"]
for _ in range(200):
    rows.append(f"{rng.choice(['RL', 'RM', 'FV'])},{rng.choice(['Pave', 'Grvl'])},"
                f"{rng.choice(['NAmes', 'CollgCr', 'OldTown', 'Edwards'])},"
                f"{rng.integers(2000, 20000)},{rng.integers(1900, 2010)},{rng.integers(0, 2)}")
df = pd.read_csv(io.StringIO("\n".join(rows)))

CATEGORICAL = ["zoning", "street", "neighborhood"]
NUMERIC = ["lot_area", "year_built"]


def build_features(train_df, test_df):
    enc = OneHotEncoder(sparse_output=False, handle_unknown="ignore")
    scaler = StandardScaler()
    tr = np.hstack([enc.fit_transform(train_df[CATEGORICAL]), scaler.fit_transform(train_df[NUMERIC])])  # root-cause
    te = np.hstack([enc.transform(test_df[CATEGORICAL]), scaler.transform(test_df[NUMERIC])])
    return tr, te


train_df, test_df = train_test_split(df, test_size=0.25, random_state=0, stratify=df["expensive"])
X_tr, X_te = build_features(train_df, test_df)
y_tr = torch.from_numpy(train_df["expensive"].to_numpy())

model = nn.Sequential(nn.Linear(X_tr.shape[1], 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loader = DataLoader(TensorDataset(torch.from_numpy(X_tr), y_tr), batch_size=32, shuffle=True)


def run_epoch():
    for xb, yb in loader:
        loss = nn.functional.cross_entropy(model(xb), yb)  # fails-here
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


for epoch in range(3):
    print(f"epoch {epoch}: {run_epoch():.4f}")
