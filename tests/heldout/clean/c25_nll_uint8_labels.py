"""Labels are stored as uint8 to save memory; NLLLoss accepts Byte targets."""
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(4)
features = torch.from_numpy(rng.normal(size=(240, 9)).astype(np.float32))
labels = torch.from_numpy(rng.integers(0, 6, size=240).astype(np.uint8))

model = nn.Sequential(nn.Linear(9, 18), nn.ReLU(), nn.Linear(18, 6), nn.LogSoftmax(dim=1))
criterion = nn.NLLLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(3):
    for i in range(0, 240, 48):
        loss = criterion(model(features[i:i + 48]), labels[i:i + 48])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} nll {loss.item():.4f}")
