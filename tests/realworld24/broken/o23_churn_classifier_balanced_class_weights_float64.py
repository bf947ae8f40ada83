"""Customer-churn classifier on an imbalanced table: the 'balanced' class weights are computed with NumPy (the formula of sklearn's compute_class_weight, float64 output) and handed to CrossEntropyLoss with torch.from_numpy, which keeps float64 next to the float32 logits
source: https://androidkt.com/how-to-use-class-weight-in-crossentropyloss-for-an-imbalanced-dataset/
reported-error: class_weights = compute_class_weight('balanced', ...) must become a tensor with class_weights = torch.tensor(class_weights, dtype=torch.float) before nn.CrossEntropyLoss(weight=class_weights)
outcome: RuntimeError: expected scalar type Float but found Double at line 43
root-cause: line 32
expect: DG004
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
    df = pd.DataFrame({
        "tenure": rng.integers(1, 72, n),
        "monthly": rng.normal(70, 20, n),
        "tickets": rng.poisson(1.0, n),
    })
    df["plan"] = rng.choice(3, n, p=[0.8, 0.15, 0.05])
    return df


def make_criterion(labels):
    class_weights = compute_class_weight(labels)
    return nn.CrossEntropyLoss(weight=torch.from_numpy(class_weights), reduction="mean")  # root-cause


def train(df, epochs=5):
    x = torch.tensor(df[["tenure", "monthly", "tickets"]].to_numpy(), dtype=torch.float32)
    x = (x - x.mean(0)) / x.std(0)
    y = torch.from_numpy(df["plan"].to_numpy())
    criterion = make_criterion(df["plan"].to_numpy())
    model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 3))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        loss = criterion(model(x), y)  # fails-here
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"weighted loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(load_customers())
