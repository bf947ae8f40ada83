"""Customer-churn MLP with hand-written early stopping: the pandas frame holds integer columns (age, visits, tenure), sklearn's StandardScaler turns them into a float64 array, the tensors are built with torch.tensor(scaled) and split with random_split, and the float32 model fails on the first batch
source: https://www.codegenes.net/blog/pytorch-standardscaler
reported-error: the guide's pipeline (StandardScaler on the features, then tensors for the model) needs float32 tensors; scaler output of integer columns is float64
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 52
root-cause: line 30
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.preprocessing import StandardScaler
from torch.utils.data import DataLoader, TensorDataset, random_split


def load_frame(n=300, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "age": rng.integers(18, 80, n),
        "visits": rng.integers(0, 40, n),
        "tenure": rng.integers(1, 120, n),
    })
    df["churn"] = ((df["visits"] < 10) & (df["tenure"] < 24)).astype("float32")
    return df


def make_datasets(df, features=("age", "visits", "tenure")):
    scaler = StandardScaler()
    scaled = scaler.fit_transform(df[list(features)])
    x = torch.tensor(scaled)  # root-cause
    y = torch.tensor(df["churn"].values).unsqueeze(1)
    full = TensorDataset(x, y)
    n_val = len(full) // 5
    return random_split(full, [len(full) - n_val, n_val], generator=torch.Generator().manual_seed(0))


def evaluate(model, loader, criterion):
    model.eval()
    with torch.no_grad():
        return sum(criterion(model(xb), yb).item() for xb, yb in loader) / len(loader)


def fit(model, train_ds, val_ds, patience=2, max_epochs=20):
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    train_loader = DataLoader(train_ds, batch_size=32, shuffle=True)
    val_loader = DataLoader(val_ds, batch_size=64)
    best, bad = float("inf"), 0
    for epoch in range(max_epochs):
        model.train()
        for xb, yb in train_loader:
            loss = criterion(model(xb), yb)  # fails-here
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        val = evaluate(model, val_loader, criterion)
        print(f"epoch {epoch}: val {val:.4f}")
        if val < best - 1e-4:
            best, bad = val, 0
        else:
            bad += 1
            if bad >= patience:
                break


train_ds, val_ds = make_datasets(load_frame())
fit(nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1)), train_ds, val_ds)
