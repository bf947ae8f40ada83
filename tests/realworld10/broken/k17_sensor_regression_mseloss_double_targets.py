"""Sensor-calibration regression: features are made float32 explicitly, but the reference readings go through a scipy low-pass filter (float64 output) and are stacked with torch.from_numpy, so nn.MSELoss mixes a float32 prediction with float64 targets and silently returns a float64 loss
source: https://github.com/pytorch/pytorch/issues/36553
reported-error: MSELoss with inputs of different dtypes (model(X) double, Y float) failed in backward with "expected dtype Double but got dtype Float"; the report asks that MSELoss either throw or handle mixed dtypes
outcome: ok (silent: criterion(pred, target) at line 40 returns a float64 loss, printed as "loss dtype torch.float64"; the loss graph runs in double)
root-cause: line 29
expect: DG008
"""
import numpy as np
import torch
import torch.nn as nn
from scipy.signal import butter, filtfilt


class SimpleModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x):
        return self.layer(x)


def load_readings(n=200, seed=0):
    rng = np.random.default_rng(seed)
    raw = rng.normal(size=(n, 3)).astype(np.float32)
    reference = raw @ np.array([0.5, -0.2, 0.1], dtype=np.float32) + 0.05 * rng.normal(size=n).astype(np.float32)
    b, a = butter(2, 0.3)
    smooth = filtfilt(b, a, reference).copy()
    return torch.from_numpy(raw), torch.from_numpy(smooth).unsqueeze(1)  # root-cause


X, Y = load_readings()
model = SimpleModel()
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
model.train()
for epoch in range(3):
    optimizer.zero_grad()
    pred = model(X)
    loss = criterion(pred, Y)  # fails-here
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}, loss dtype {loss.dtype}")
