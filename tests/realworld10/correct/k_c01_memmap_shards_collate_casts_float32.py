"""Feature-regression job whose memmap shards are still float64 on disk and whose Dataset still returns torch.from_numpy rows, but the DataLoader's collate_fn stacks the features with dtype=torch.float32 before the MLP
source: https://duoke360.com/post/34139
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import ConcatDataset, DataLoader, Dataset


def write_shard(path, n, dim, seed):
    mm = np.memmap(path, dtype="float64", mode="w+", shape=(n, dim + 1))
    mm[:] = np.random.default_rng(seed).normal(size=(n, dim + 1))
    mm.flush()
    return path


class MemmapShard(Dataset):
    def __init__(self, path, n, dim):
        self.features = np.memmap(path, dtype="float64", mode="r", shape=(n, dim + 1))

    def __len__(self):
        return self.features.shape[0]

    def __getitem__(self, idx):
        row = torch.from_numpy(np.array(self.features[idx]))
        return row[:-1], row[-1]


def collate_float32(batch):
    feats, targets = zip(*batch)
    return torch.stack(feats).to(torch.float32), torch.stack(targets).to(torch.float32)


root = tempfile.mkdtemp()
dim = 16
shards = [MemmapShard(write_shard(os.path.join(root, f"shard{i}.npy"), 64, dim, i), 64, dim) for i in range(2)]
loader = DataLoader(ConcatDataset(shards), batch_size=32, shuffle=True, collate_fn=collate_float32)
model = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(2):
    for feats, target in loader:
        loss = nn.functional.mse_loss(model(feats).squeeze(1), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f} ({loss.dtype})")
