"""Time-series regression. Inputs are cast to float32, targets are not; the best
validation loss is tracked with NumPy and saved into the checkpoint."""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

CKPT_DIR = tempfile.mkdtemp(prefix="ts_")


def make_windows(series, width=12):
    X = np.stack([series[i:i + width] for i in range(len(series) - width)])
    y = series[width:].reshape(-1, 1)
    return X, y


series = np.sin(np.linspace(0, 20, 400)) + 0.05 * np.random.randn(400)
X, y = make_windows(series)
X_t = torch.tensor(X, dtype=torch.float32)
y_t = torch.tensor(y)  # expect: DG008

model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
mse = nn.MSELoss()

best = np.inf
ckpt_path = os.path.join(CKPT_DIR, "best.pt")
for epoch in range(3):
    losses = []
    for i in range(0, len(X_t), 64):
        pred = model(X_t[i:i + 64])
        loss = mse(pred, y_t[i:i + 64])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    epoch_loss = np.mean(losses)
    if epoch_loss < best:
        best = epoch_loss
        torch.save({"epoch": epoch, "state_dict": model.state_dict(), "best_loss": best}, ckpt_path)  # expect: DG011
    print(f"epoch {epoch}: {epoch_loss:.5f}")

ckpt = torch.load(ckpt_path, map_location="cpu")
model.load_state_dict(ckpt["state_dict"])
print("restored epoch", ckpt["epoch"], "best", ckpt["best_loss"])
