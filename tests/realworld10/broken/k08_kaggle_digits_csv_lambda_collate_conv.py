"""Kaggle digit-recognizer convnet: train.csv is parsed with np.loadtxt (float64) and scaled by 1/255, and the DataLoader's lambda collate_fn stacks the pixel rows with torch.tensor(np.stack(...)), so the float64 batch reaches the float32 Conv2d
source: https://github.com/pytorch/pytorch/issues/1997
reported-error: RuntimeError: expected Double tensor (got Float tensor) (the reporter had to add convnet = convnet.double())
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 31
root-cause: line 43
expect: DG004
"""
import io

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


def fake_train_csv(n=128, seed=0):
    rng = np.random.default_rng(seed)
    rows = [",".join(str(v) for v in [rng.integers(0, 10)] + list(rng.integers(0, 256, 28 * 28))) for _ in range(n)]
    return io.StringIO("\n".join(rows))


class MnistConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 5)
        self.conv2 = nn.Conv2d(8, 16, 5)
        self.fc = nn.Linear(16 * 4 * 4, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)  # fails-here
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


data = np.loadtxt(fake_train_csv(), delimiter=",")
labels, pixels = data[:, 0].astype(np.int64), data[:, 1:].reshape(-1, 1, 28, 28) / 255.0
samples = list(zip(pixels, labels))
loader = DataLoader(
    samples,
    batch_size=32,
    shuffle=True,
    collate_fn=lambda b: (torch.tensor(np.stack([s[0] for s in b])), torch.tensor([s[1] for s in b])),  # root-cause
)
convnet = MnistConvNet()
optimizer = torch.optim.SGD(convnet.parameters(), lr=0.05, momentum=0.9)
for it, (x, y) in enumerate(loader):
    loss = F.cross_entropy(convnet(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"iter {it}: loss {loss.item():.4f}")
