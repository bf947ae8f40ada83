"""TabR-style tabular regression: features go through a NumPy quantile-like normalisation (float64) and are fed to an MLP built in float32
source: https://github.com/yandex-research/tabular-dl-tabr/issues/23
reported-error: RuntimeError: mat1 and mat2 must have the same dtype (raised from F.linear inside the model's forward)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 48
root-cause: line 59
expect: DG005
"""
import argparse
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn


@dataclass
class Config:
    d_main: int = 64
    n_blocks: int = 2
    lr: float = 1e-3
    batch_size: int = 32
    n_epochs: int = 2


def load_dataset(n=256, d=8, seed=0):
    rng = np.random.default_rng(seed)
    X = {"train": rng.normal(size=(n, d)), "val": rng.normal(size=(n // 4, d))}
    y = {"train": X["train"] @ rng.normal(size=d), "val": X["val"] @ rng.normal(size=d)}
    return X, y


def normalize(X):
    # quantile-ish normalisation computed in NumPy, keeps float64
    mean, std = X["train"].mean(0), X["train"].std(0) + 1e-8
    return {k: (v - mean) / std for k, v in X.items()}


class MLP(nn.Module):
    def __init__(self, d_in, cfg):
        super().__init__()
        layers = [nn.Linear(d_in, cfg.d_main), nn.ReLU()]
        for _ in range(cfg.n_blocks - 1):
            layers += [nn.Linear(cfg.d_main, cfg.d_main), nn.ReLU()]
        layers.append(nn.Linear(cfg.d_main, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, x_num):
        return self.net(x_num).squeeze(-1)  # fails-here


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    cfg = Config()
    X, y = load_dataset(seed=args.seed)
    X = normalize(X)
    dataset = {
        part: (torch.as_tensor(X[part]), torch.as_tensor(y[part], dtype=torch.float32))  # root-cause
        for part in X
    }
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
