"""Tabular MLP regression: torch.from_numpy(X) keeps NumPy's float64 while y is built as float32, so the Linear layers get Double input
source: https://github.com/pytorch/pytorch/issues/91533
reported-error: RuntimeError from the first nn.Linear at l = loss(net(_X), _y) after print(X.dtype) showed torch.float64 (issue title: Cannot cast float64 to float32; the reporter's .float() attempt segfaulted)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 49
root-cause: line 32
expect: DG005
"""
import argparse

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def load_features(n_rows=512, n_cols=12, seed=0):
    # stands in for the feature matrix the reporter prepared with numpy / sklearn
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, n_cols))
    y = X @ rng.normal(size=n_cols) + 0.1 * rng.normal(size=n_rows)
    return X, y


def main():
    parser = argparse.ArgumentParser(description="5_train_mlp")
    parser.add_argument("--batch_size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()

    X, y = load_features()
    X = torch.from_numpy(X)  # root-cause
    print(X.dtype)
    y = torch.tensor(y, dtype=torch.float32).reshape(-1, 1)
    train_data = TensorDataset(X, y)
    train_loader = DataLoader(dataset=train_data, batch_size=args.batch_size, shuffle=True)

    net = nn.Sequential(
        nn.Linear(X.shape[1], 16),
        nn.ReLU(),
        nn.Linear(16, 1),
    )

    trainer = torch.optim.Adam(net.parameters(), lr=args.lr)
    loss = nn.MSELoss()
    for epoch in range(args.epochs):
        for _X, _y in train_loader:
            trainer.zero_grad()
            l = loss(net(_X), _y)  # fails-here
            l.backward()
            trainer.step()
        with torch.no_grad():
            l = loss(net(X), y)
            print(f"epoch {epoch} train loss: {l}")


if __name__ == "__main__":
    main()
