"""Omniglot-style siamese network: the pair sampler (NumPy) returns labels as np.array([...]) of Python ints (int64), the custom collate_fn stacks them with torch.from_numpy, and BCEWithLogitsLoss cannot write its Float result into the Long target's type
source: https://github.com/fangpin/siamese-pytorch/pull/12
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 53
root-cause: line 29
expect: DG007
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class PairSampler(Dataset):
    def __init__(self, n_classes=10, per_class=6, seed=0):
        rng = np.random.default_rng(seed)
        self.imgs = rng.random((n_classes, per_class, 1, 28, 28)).astype(np.float32)
        self.rng = rng

    def __len__(self):
        return 96

    def __getitem__(self, i):
        c1 = self.rng.integers(len(self.imgs))
        same = i % 2 == 0
        c2 = c1 if same else (c1 + 1 + self.rng.integers(len(self.imgs) - 1)) % len(self.imgs)
        a = self.imgs[c1, self.rng.integers(6)]
        b = self.imgs[c2, self.rng.integers(6)]
        return a, b, np.array([1 if same else 0])  # root-cause


def collate_fn(batch):
    a, b, y = zip(*batch)
    return torch.from_numpy(np.stack(a)), torch.from_numpy(np.stack(b)), torch.from_numpy(np.stack(y))


class Siamese(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 16, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(16 * 12 * 12, 64), nn.Sigmoid())
        self.out = nn.Linear(64, 1)

    def forward(self, a, b):
        return self.out(torch.abs(self.conv(a) - self.conv(b)))


net = Siamese()
loss_fn = nn.BCEWithLogitsLoss()
opt = torch.optim.Adam(net.parameters(), lr=6e-5)
loader = DataLoader(PairSampler(), batch_size=16, shuffle=True, collate_fn=collate_fn)
for a, b, label in loader:
    out = net(a, b)
    loss = loss_fn(out, label)  # fails-here
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
