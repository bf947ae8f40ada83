"""Sensor-calibration regressor reading an in-memory CSV with pandas; the features are cast with .astype("float32") but the reference readings come from df[["reference"]].values (float64), so nn.MSELoss computes a float64 loss for the whole run without complaint
source: https://github.com/chainer/chainer/issues/126
reported-error: MSE returns float64 value; it propagates backward and causes a type error (Chainer; PyTorch promotes silently)
outcome: ok (silent: criterion(pred, target) at line 37 returns a float64 loss, printed as "loss dtype torch.float64")
root-cause: line 26
expect: DG008
"""
import io

import numpy as np
import pandas as pd
import torch
import torch.nn as nn

rng = np.random.default_rng(7)
raw = rng.uniform(0, 5, size=(400, 3))
ref = 1.8 * raw[:, 0] - 0.4 * raw[:, 1] + 0.1 * raw[:, 2] ** 2 + rng.normal(0, 0.05, 400)
buf = io.StringIO()
pd.DataFrame({"v_a": raw[:, 0], "v_b": raw[:, 1], "temp": raw[:, 2], "reference": ref}).to_csv(buf, index=False)
buf.seek(0)


def load_calibration(csv):
    df = pd.read_csv(csv)
    features = torch.from_numpy(df[["v_a", "v_b", "temp"]].astype("float32").values)
    target = torch.from_numpy(df[["reference"]].values)  # root-cause
    return features, target


X, Y = load_calibration(buf)
model = nn.Sequential(nn.Linear(3, 32), nn.Tanh(), nn.Linear(32, 1))
criterion = nn.MSELoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=100, gamma=0.5)
for step in range(300):
    pred = model(X)
    loss = criterion(pred, Y)  # fails-here
    opt.zero_grad()
    loss.backward()
    opt.step()
    scheduler.step()
print(f"final loss {loss.item():.4f}")
print("loss dtype", loss.dtype)
