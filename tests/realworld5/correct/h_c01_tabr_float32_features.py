"""TabR-style tabular regression where the NumPy-normalised features are cast to float32 before they become tensors
source: https://github.com/yandex-research/tabular-dl-tabr/issues/23
reported-error: RuntimeError: mat1 and mat2 must have the same dtype (in the broken version)
outcome: ok
root-cause: -
expect: none
"""
import argparse
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn


@dataclass
class Config:
    d_main: int = 64
    lr: float = 1e-3
    batch_size: int = 32
    n_epochs: int = 2


def load_dataset(n=256, d=8, seed=0):
    rng = np.random.default_rng(seed)
    X = {"train": rng.normal(size=(n, d)), "val": rng.normal(size=(n // 4, d))}
    y = {"train": X["train"] @ rng.normal(size=d), "val": X["val"] @ rng.normal(size=d)}
    return X, y


def normalize(X):
    mean, std = X["train"].mean(0), X["train"].std(0) + 1e-8
    return {k: ((v - mean) / std).astype(np.float32) for k, v in X.items()}


class MLP(nn.Module):
    def __init__(self, d_in, cfg):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, cfg.d_main), nn.ReLU(), nn.Linear(cfg.d_main, 1))

    def forward(self, x_num):
        return self.net(x_num).squeeze(-1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    cfg = Config()
    X, y = load_dataset(seed=args.seed)
    X = normalize(X)
    dataset = {part: (torch.as_tensor(X[part]), torch.as_tensor(y[part], dtype=torch.float32)) for part in X}
    model = MLP(X["train"].shape[1], cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    x_train, y_train = dataset["train"]
    for epoch in range(cfg.n_epochs):
        for idx in torch.randperm(len(x_train)).split(cfg.batch_size):
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(x_train[idx]), y_train[idx])
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
