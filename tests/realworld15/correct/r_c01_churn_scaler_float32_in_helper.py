"""Churn classifier whose to_tensor() helper converts the StandardScaler output with .astype(np.float32) before torch.from_numpy, far from the training loop that consumes it
source: https://github.com/microsoft/hummingbird/pull/381
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from torch.utils.data import DataLoader, TensorDataset


def to_tensor(array, dtype=np.float32):
    return torch.from_numpy(np.ascontiguousarray(array, dtype=dtype))


def make_datasets(df):
    X = df.drop(columns="churn").to_numpy(dtype=float)
    y = df["churn"].to_numpy()
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=0, stratify=y)
    scaler = StandardScaler().fit(X_tr)
    return (TensorDataset(to_tensor(scaler.transform(X_tr)), to_tensor(y_tr, np.int64)),
            TensorDataset(to_tensor(scaler.transform(X_te)), to_tensor(y_te, np.int64)))


def train_one_epoch(model, loader, optimizer, loss_fn):
    for features, target in loader:
        loss = loss_fn(model(features), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


rng = np.random.default_rng(0)
df = pd.DataFrame({"tenure": rng.integers(1, 72, 200), "monthly": rng.normal(70, 20, 200),
                   "support_calls": rng.poisson(2, 200), "age": rng.integers(18, 80, 200)})
df["churn"] = ((df["support_calls"] > 2) & (df["tenure"] < 24)).astype(np.int64)
train_ds, test_ds = make_datasets(df)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(2):
    print("epoch", epoch, "loss", train_one_epoch(model, DataLoader(train_ds, batch_size=32, shuffle=True), opt, nn.CrossEntropyLoss()))
X_te, y_te = test_ds.tensors
print("test acc", (model(X_te).argmax(1) == y_te).float().mean().item())
