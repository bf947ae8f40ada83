"""H01 fixed: no global default tensor type; the NumPy data is cast to float32 at the source."""
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

rng = np.random.default_rng(0)
features = rng.normal(size=(128, 3)).astype(np.float32)
labels = (features.sum(axis=1) > 0).astype(np.int64)

x = torch.from_numpy(features)  # float32
y = torch.from_numpy(labels)

model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(5):
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
