"""H11: integer features (counts) into a float layer.

`torch.tensor` of Python ints is int64; nn.Linear fails with
"mat1 and mat2 must have the same dtype, but got Long and Float".
"""
import random

import torch
from torch import nn


def load_counts(n=100):
    random.seed(0)
    rows = [[random.randint(0, 20) for _ in range(5)] for _ in range(n)]
    targets = [float(sum(r)) / 100.0 for r in rows]
    return torch.tensor(rows), torch.tensor(targets).unsqueeze(1)  # expect: DG005


def main():
    counts, target = load_counts()
    model = nn.Linear(5, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    for epoch in range(10):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(counts), target)
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
