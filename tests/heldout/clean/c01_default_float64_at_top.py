"""Scientific regression in double precision: the global default is set once, first,
before any tensor or module exists, so NumPy float64 data matches the float64 model."""
import torch

torch.set_default_dtype(torch.float64)

import numpy as np
import torch.nn as nn

rng = np.random.default_rng(0)
X = torch.from_numpy(rng.uniform(-1, 1, size=(256, 2)))
y = torch.from_numpy(np.exp(-(X.numpy() ** 2).sum(1, keepdims=True)))

model = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.MSELoss()

for epoch in range(30):
    optimizer.zero_grad()
    loss = criterion(model(X), y)
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch}: {loss.item():.3e} ({loss.dtype})")
