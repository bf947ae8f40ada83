import numpy as np
import torch
from torch import nn, optim

rng = np.random.default_rng(0)
X = rng.standard_normal((120, 9)).astype(np.float32)
y = rng.integers(0, 5, size=120).astype(np.int32)  # "int32 is enough for class ids"  # expect: DG006

features = torch.from_numpy(X)
classes = torch.from_numpy(y)

model = nn.Sequential(nn.Linear(9, 20), nn.ReLU(), nn.Linear(20, 5))
criterion = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(10):
    optimizer.zero_grad()
    loss = criterion(model(features), classes)
    loss.backward()
    optimizer.step()
