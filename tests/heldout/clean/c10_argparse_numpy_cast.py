"""argparse-driven classifier; NumPy data is cast to float32 / int64 where it enters torch.
Uses a fused AdamW (supported on CPU and CUDA for float32 params)."""
import argparse

import numpy as onp
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def get_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--classes", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=2e-3)
    return ap.parse_args()


def synth(n, classes):
    centers = onp.random.randn(classes, 4) * 3
    y = onp.random.randint(0, classes, size=n)
    X = centers[y] + onp.random.randn(n, 4)
    return X.astype(onp.float32), y


def main():
    args = get_args()
    X, y = synth(args.n, args.classes)
    ds = TensorDataset(torch.from_numpy(X), torch.from_numpy(y).long())
    loader = DataLoader(ds, batch_size=50, shuffle=True)
    model = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, args.classes))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, fused=True)
    crit = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        for step, (xb, yb) in enumerate(loader):
            loss = crit(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
