"""Bezier lane regression: ground-truth control points are fitted with NumPy least squares (float64) in __getitem__; MSE against the float32 prediction silently returns a float64 loss
source: https://github.com/mo-vic/BezierLaneNet/issues/3
reported-error: RuntimeError: Found dtype Float but expected Double (at loss.backward on the reporter's torch; the target control points were float64)
outcome: ok (silent: nn.MSELoss(pred float32, target float64) at line 52 returns a torch.float64 loss, printed as "dtype torch.float64"; the whole loss graph runs in double)
root-cause: line 35
expect: DG008
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def bernstein_matrix(t, degree):
    from math import comb
    return np.stack([comb(degree, k) * t ** k * (1 - t) ** (degree - k) for k in range(degree + 1)], axis=1)


class LaneDataset(Dataset):
    def __init__(self, n=32, degree=3, size=32):
        self.degree, self.size, self.n = degree, size, n
        self.rng = np.random.default_rng(0)

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        img = self.rng.random((3, self.size, self.size)).astype(np.float32)
        ys = np.linspace(0, 1, 20)
        xs = 0.5 + 0.2 * np.sin(3 * ys + idx)
        A = bernstein_matrix(ys, self.degree)
        ctrl, *_ = np.linalg.lstsq(A, np.stack([xs, ys], 1), rcond=None)
        return torch.from_numpy(img), torch.from_numpy(ctrl.reshape(-1))  # root-cause


class BezierNet(nn.Module):
    def __init__(self, degree=3):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten())
        self.head = nn.Linear(8 * 16, (degree + 1) * 2)

    def forward(self, x):
        return self.head(self.features(x))


def train(model, train_loader, optimizer, criterion, epoch):
    model.train()
    for img, target in train_loader:
        pred = model(img)
        loss = criterion(pred, target)  # fails-here
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.5f} dtype {loss.dtype}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--degree", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    model = BezierNet(args.degree)
    loader = DataLoader(LaneDataset(degree=args.degree), batch_size=8, shuffle=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for e in range(args.epochs):
        train(model, loader, optimizer, nn.MSELoss(), e)


if __name__ == "__main__":
    main()
