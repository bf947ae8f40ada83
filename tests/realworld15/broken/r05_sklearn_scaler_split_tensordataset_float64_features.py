"""Churn classifier: pandas features scaled with sklearn StandardScaler after train_test_split (float64 in, float64 out); make_datasets() wraps the scaled arrays with torch.from_numpy, so the float32 MLP receives float64 batches in train_one_epoch
source: https://github.com/microsoft/hummingbird/pull/381
reported-error: type errors when the inputs are float64 (fixed by converting f64 to f32 before evaluation)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 43
root-cause: line 34
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from torch.utils.data import DataLoader, TensorDataset


def load_frame(n=200, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "tenure": rng.integers(1, 72, n),
        "monthly": rng.normal(70, 20, n),
        "support_calls": rng.poisson(2, n),
        "age": rng.integers(18, 80, n),
    })
    df["churn"] = ((df["support_calls"] > 2) & (df["tenure"] < 24)).astype(np.int64)
    return df


def make_datasets(df):
    X = df.drop(columns="churn").to_numpy(dtype=float)
    y = df["churn"].to_numpy()
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=0, stratify=y)
    scaler = StandardScaler().fit(X_tr)
    train = TensorDataset(torch.from_numpy(scaler.transform(X_tr)), torch.from_numpy(y_tr))  # root-cause
    test = TensorDataset(torch.from_numpy(scaler.transform(X_te)).float(), torch.from_numpy(y_te))
    return train, test


def train_one_epoch(model, loader, optimizer, loss_fn):
    model.train()
    running = 0.0
    for features, target in loader:
        logits = model(features)  # fails-here
        loss = loss_fn(logits, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item() * len(target)
    return running / len(loader.dataset)


train_ds, test_ds = make_datasets(load_frame())
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
loader = DataLoader(train_ds, batch_size=32, shuffle=True)
for epoch in range(3):
    print("epoch", epoch, "loss", train_one_epoch(model, loader, optimizer, nn.CrossEntropyLoss()))
