"""H01: the "one trick" on CPU.

`set_default_tensor_type` is deprecated since PyTorch 2.1, and on CPU it changes nothing:
float32 is already the default, and NumPy data stays float64 either way.
"""
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_default_tensor_type("torch.FloatTensor")  # expect: DG002

rng = np.random.default_rng(0)
features = rng.normal(size=(128, 3))  # NumPy arrays are float64
labels = (features.sum(axis=1) > 0).astype(np.int64)

x = torch.from_numpy(features)  # still float64  # expect: DG004
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
