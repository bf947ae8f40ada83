"""NAS neural predictor whose Dataset still returns val_acc as float64, converted to float32 by a custom collate_fn before the MSELoss
source: https://github.com/ultmaster/neuralpredictor.pytorch/issues/5
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, default_collate


class Nb101Dataset(Dataset):
    def __init__(self, n=40, nodes=7):
        rng = np.random.default_rng(0)
        self.ops = rng.random((n, nodes, 5)).astype(np.float32)
        self.val_acc = rng.uniform(0.8, 0.95, n)

    def __len__(self):
        return len(self.ops)

    def __getitem__(self, i):
        return {"operations": self.ops[i], "val_acc": self.val_acc[i]}


def collate_float32(samples):
    batch = default_collate(samples)
    return {k: v.to(torch.float32) if v.is_floating_point() else v for k, v in batch.items()}


net = nn.Sequential(nn.Flatten(), nn.Linear(35, 16), nn.ReLU(), nn.Linear(16, 1), nn.Flatten(0))
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
for epoch in range(2):
    for batch in DataLoader(Nb101Dataset(), batch_size=10, shuffle=True, collate_fn=collate_float32):
        loss = criterion(net(batch["operations"]), batch["val_acc"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, loss.dtype, round(loss.item(), 5))
