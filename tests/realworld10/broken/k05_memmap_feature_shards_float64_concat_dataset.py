"""Feature-regression job whose precomputed features live in float64 numpy memmaps (two shards in a temp dir, joined with ConcatDataset); __getitem__ wraps each row with torch.from_numpy without converting, so the default collate stacks float64 batches into the float32 MLP
source: https://duoke360.com/post/34139
reported-error: RuntimeError: expected scalar type Float but found Double (NumPy arrays default to float64 and torch.from_numpy keeps the dtype)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 45
root-cause: line 34
expect: DG004
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import ConcatDataset, DataLoader, Dataset


def write_shard(path, n, dim, seed):
    rng = np.random.default_rng(seed)
    mm = np.memmap(path, dtype="float64", mode="w+", shape=(n, dim + 1))
    mm[:] = rng.normal(size=(n, dim + 1))
    mm.flush()
    return path


class MemmapShard(Dataset):
    def __init__(self, path, n, dim):
        self.features = np.memmap(path, dtype="float64", mode="r", shape=(n, dim + 1))

    def __len__(self):
        return self.features.shape[0]

    def __getitem__(self, idx):
        row = np.array(self.features[idx])
        return torch.from_numpy(row[:-1]), torch.tensor(row[-1], dtype=torch.float32)  # root-cause


def main(dim=16):
    root = tempfile.mkdtemp()
    shards = [MemmapShard(write_shard(os.path.join(root, f"shard{i}.npy"), 64, dim, i), 64, dim) for i in range(2)]
    loader = DataLoader(ConcatDataset(shards), batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(2):
        for feats, target in loader:
            pred = model(feats).squeeze(1)  # fails-here
            loss = nn.functional.mse_loss(pred, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
