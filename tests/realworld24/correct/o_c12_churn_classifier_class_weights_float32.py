"""Customer-churn classifier whose 'balanced' class weights are still computed in NumPy float64 (compute_class_weight formula) but converted with torch.tensor(weights, dtype=torch.float32) before nn.CrossEntropyLoss(weight=...), so the weights match the float32 logits
source: https://errorhandle.ai/in-pytorch-how-to-use-the-weight-parameter-in-f-cross-entropy
reported-error: none (correct idiom: weights = compute_class_weight('balanced', ...); weights = torch.tensor(weights, dtype=torch.float32))
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


def compute_class_weight(y):
    classes, counts = np.unique(y, return_counts=True)
    return len(y) / (len(classes) * counts)


def load_customers(n=300, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"tenure": rng.integers(1, 72, n), "monthly": rng.normal(70, 20, n), "tickets": rng.poisson(1.0, n)})
    df["plan"] = rng.choice(3, n, p=[0.8, 0.15, 0.05])
    return df


if __name__ == "__main__":
    torch.manual_seed(0)
    df = load_customers()
    x = torch.tensor(df[["tenure", "monthly", "tickets"]].to_numpy(), dtype=torch.float32)
    x = (x - x.mean(0)) / x.std(0)
    y = torch.from_numpy(df["plan"].to_numpy())
    weights = torch.tensor(compute_class_weight(df["plan"].to_numpy()), dtype=torch.float32)
    criterion = nn.CrossEntropyLoss(weight=weights)
    model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 3))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(5):
        loss = criterion(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"weighted loss {loss.item():.4f}")
