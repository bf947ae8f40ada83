import os
import tempfile

import numpy as np
import torch
from torch import nn

model = nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
best_metric = np.float64(0.87)

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "best.pt")
    # Only tensors and plain Python numbers: loadable with the weights_only=True default.
    torch.save({"state_dict": model.state_dict(), "best_metric": float(best_metric)}, path)
    ckpt = torch.load(path, map_location="cpu", weights_only=True)
    model.load_state_dict(ckpt["state_dict"])

x = torch.randn(16, 4)
y = torch.randint(0, 2, (16,))
optimizer.zero_grad()
loss = nn.functional.cross_entropy(model(x), y)
loss.backward()
optimizer.step()
