"""Tabular regression driven by argparse; features come straight from NumPy."""
import argparse

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def parse_args():
    p = argparse.ArgumentParser(description="house price regressor")
    p.add_argument("--n-samples", type=int, default=256)
    p.add_argument("--n-features", type=int, default=8)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--epochs", type=int, default=2)
    return p.parse_args()


def main():
    args = parse_args()
    rng = np.random.default_rng(0)
    X = rng.normal(size=(args.n_samples, args.n_features))
    y = X @ rng.normal(size=(args.n_features, 1)) + 0.1 * rng.normal(size=(args.n_samples, 1))

    ds = TensorDataset(torch.from_numpy(X), torch.from_numpy(y))  # expect: DG004
    loader = DataLoader(ds, batch_size=args.batch_size, shuffle=True)

    model = nn.Sequential(nn.Linear(args.n_features, 32), nn.ReLU(), nn.Linear(32, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.MSELoss()

    for epoch in range(args.epochs):
        running = 0.0
        for step, (xb, yb) in enumerate(loader):
            optimizer.zero_grad()
            pred = model(xb)
            loss = criterion(pred, yb)
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch} loss {running / (step + 1):.4f}")


if __name__ == "__main__":
    main()
