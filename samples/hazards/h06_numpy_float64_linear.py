"""H06: NumPy float64 features into a float32 nn.Linear.

`torch.from_numpy` keeps float64; the layer's matmul does not promote, so the forward
pass fails with "mat1 and mat2 must have the same dtype, but got Double and Float".
"""
import numpy as np
import torch
from torch import nn


class Regressor(nn.Module):
    def __init__(self, n_features):
        super().__init__()
        self.hidden = nn.Linear(n_features, 32)
        self.out = nn.Linear(32, 1)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))


rng = np.random.default_rng(42)
X = rng.uniform(-1, 1, size=(500, 4))
y = (X @ np.array([1.5, -2.0, 0.5, 3.0]) + 0.1 * rng.normal(size=500)).astype(np.float32)

inputs = torch.from_numpy(X)  # expect: DG004
targets = torch.from_numpy(y).unsqueeze(1)

model = Regressor(n_features=4)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.MSELoss()

for epoch in range(10):
    optimizer.zero_grad()
    preds = model(inputs)
    loss = criterion(preds, targets)
    loss.backward()
    optimizer.step()
