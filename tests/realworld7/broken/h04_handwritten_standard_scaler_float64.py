"""Tabular classifier with a StandardScaler written by hand in NumPy: fit/transform return float64 arrays that go straight into the float32 MLP
source: https://itsourcecode.com/runtimeerror/runtimeerror-mat1-and-mat2-must-have-the-same-dtype/
reported-error: RuntimeError: mat1 and mat2 must have the same dtype
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 61
root-cause: line 53
expect: DG004
"""
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn


@dataclass
class TrainConfig:
    n_samples: int = 200
    n_features: int = 6
    hidden: int = 16
    epochs: int = 3
    batch_size: int = 32
    lr: float = 1e-2


class StandardScaler:
    def fit(self, X):
        self.mean_ = X.mean(axis=0)
        self.scale_ = X.std(axis=0) + 1e-12
        return self

    def transform(self, X):
        return (X - self.mean_) / self.scale_

    def fit_transform(self, X):
        return self.fit(X).transform(X)


def make_data(cfg):
    rng = np.random.default_rng(1)
    X = rng.integers(0, 100, size=(cfg.n_samples, cfg.n_features))
    y = (X[:, 0] + X[:, 1] > 100).astype(np.int64)
    return X, y


def batches(X, y, bs):
    for i in range(0, len(X), bs):
        yield X[i:i + bs], y[i:i + bs]


def main(cfg=TrainConfig()):
    X, y = make_data(cfg)
    scaler = StandardScaler()
    X_train = torch.as_tensor(scaler.fit_transform(X))  # root-cause
    y_train = torch.as_tensor(y)
    model = nn.Sequential(nn.Linear(cfg.n_features, cfg.hidden), nn.ReLU(), nn.Linear(cfg.hidden, 2))
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(cfg.epochs):
        for xb, yb in batches(X_train, y_train, cfg.batch_size):
            optimizer.zero_grad()
            loss = loss_fn(model(xb), yb)  # fails-here
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
