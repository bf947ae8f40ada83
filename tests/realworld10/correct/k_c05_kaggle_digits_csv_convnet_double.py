"""Kaggle digit-recognizer convnet kept in double precision on purpose, as the reporter ended up doing: the np.loadtxt pixels stay float64 through the lambda collate_fn and the network is converted with convnet.double() right after construction
source: https://github.com/pytorch/pytorch/issues/1997
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import io

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

rng = np.random.default_rng(0)
csv = "\n".join(",".join(str(v) for v in [rng.integers(0, 10)] + list(rng.integers(0, 256, 784))) for _ in range(96))
data = np.loadtxt(io.StringIO(csv), delimiter=",")
labels, pixels = data[:, 0].astype(np.int64), data[:, 1:].reshape(-1, 1, 28, 28) / 255.0
loader = DataLoader(
    list(zip(pixels, labels)),
    batch_size=32,
    shuffle=True,
    collate_fn=lambda b: (torch.tensor(np.stack([s[0] for s in b])), torch.tensor([s[1] for s in b])),
)


class MnistConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 5)
        self.fc = nn.Linear(8 * 12 * 12, 10)

    def forward(self, x):
        return self.fc(F.max_pool2d(F.relu(self.conv1(x)), 2).flatten(1))


convnet = MnistConvNet()
convnet = convnet.double()
optimizer = torch.optim.SGD(convnet.parameters(), lr=0.05)
for it, (x, y) in enumerate(loader):
    loss = F.cross_entropy(convnet(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"iter {it}: loss {loss.item():.4f} ({loss.dtype})")
