"""Train TabR on a user's own .npy dataset (yandex-research/tabular-dl-tabr layout: bin/tabr.py Model, lib/data.py build_dataset/Dataset.to_torch): the user's X_num_*.npy files are float64, lib/data.py hands them to torch.as_tensor unchanged, and the first Linear of TabR's encoder refuses the Double input
source: https://github.com/yandex-research/tabular-dl-tabr/blob/ee299eb4ae9c2d647ca69ee885aadbc8d32a4558/bin/tabr.py
reported-error: (the repository file itself: Model._encode sends the numerical features through Linear layers; this variant's lib/data.py converts a user's float64 X_num_*.npy with torch.as_tensor unchanged: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at bin/tabr.py:18
root-cause: lib/data.py:17
expect: DG004
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

from bin.tabr import Model
from lib.data import build_dataset


def write_user_dataset(path, n=64, n_num=6):
    rng = np.random.default_rng(0)
    os.makedirs(path, exist_ok=True)
    for part in ("train", "val", "test"):
        np.save(os.path.join(path, f"X_num_{part}.npy"), rng.standard_normal((n, n_num)))
        np.save(os.path.join(path, f"Y_{part}.npy"), rng.integers(0, 2, n))


def main():
    torch.manual_seed(0)
    path = os.path.join(tempfile.mkdtemp(), "my_dataset")
    write_user_dataset(path)
    dataset = build_dataset(path=path, num_policy="quantile")
    dataset = dataset.to_torch("cpu")
    model = Model(n_num_features=dataset.n_num_features, n_classes=2, d_main=16, context_size=8)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    X_train, Y_train = dataset.data["X_num"]["train"], dataset.data["Y"]["train"]
    for epoch in range(2):
        idx = torch.randperm(len(Y_train))[:16]
        logits = model(x_=X_train[idx], candidate_x_=X_train, candidate_y=Y_train, is_train=True)
        loss = F.cross_entropy(logits, Y_train[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
