"""Activity recognition from IMU recordings cached with np.save into a temp dir; the cache is written from np.random/np.concatenate (float64) and the RecordingDataset reads it back with np.load and torch.from_numpy, split with random_split, into a float32 nn.GRU
source: https://github.com/guanhuaw/MIRTorch/issues/31
reported-error: dtype errors after loading arrays from a data file and converting them with torch.tensor (the reporter forces dtype=torch.double then casts to float)
outcome: ValueError: RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert input: input.to(torch.float32), or convert model: model.to(torch.float64) at line 49
root-cause: line 24
expect: DG004
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, random_split

CACHE = tempfile.mkdtemp()


def write_cache(n=60, steps=50, channels=6, seed=0):
    rng = np.random.default_rng(seed)
    for i in range(n):
        acc = rng.normal(size=(steps, 3))
        gyro = np.cumsum(rng.normal(scale=0.1, size=(steps, 3)), axis=0)
        np.save(os.path.join(CACHE, f"rec_{i:03d}.npy"), np.concatenate([acc, gyro], axis=1))  # root-cause
        np.save(os.path.join(CACHE, f"rec_{i:03d}_label.npy"), np.array(i % 4))


class RecordingDataset(Dataset):
    def __init__(self, root):
        self.files = sorted(f for f in os.listdir(root) if not f.endswith("_label.npy"))
        self.root = root

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        x = np.load(os.path.join(self.root, self.files[i]))
        y = np.load(os.path.join(self.root, self.files[i].replace(".npy", "_label.npy")))
        return torch.from_numpy(x), torch.from_numpy(y)


class ActivityGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(6, 32, batch_first=True)
        self.head = nn.Linear(32, 4)

    def forward(self, x):
        _, h = self.gru(x)  # fails-here
        return self.head(h[-1])


write_cache()
train_set, val_set = random_split(RecordingDataset(CACHE), [48, 12], generator=torch.Generator().manual_seed(0))
model = ActivityGRU()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for x, y in DataLoader(train_set, batch_size=16, shuffle=True):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("train loss", loss.item())
