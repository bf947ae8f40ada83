"""H09: class labels stored as float.

cross_entropy needs int64 class indices of shape (N,); float labels fail with
"expected target dtype to be Long or Byte, but got Float".
"""
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

rng = np.random.default_rng(7)
features = rng.normal(size=(300, 10)).astype(np.float32)
labels = rng.integers(0, 3, size=300).astype(np.float32)  # e.g. read from a float CSV column  # expect: DG006

X = torch.tensor(features)
y = torch.tensor(labels)

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

for epoch in range(20):
    optimizer.zero_grad()
    logits = model(X)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
