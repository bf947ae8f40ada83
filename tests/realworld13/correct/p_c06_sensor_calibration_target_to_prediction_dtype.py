"""Sensor-calibration regressor that still reads the float64 reference column from pandas, but the loss step aligns it with target.to(pred) (dtype and device of the prediction) before nn.MSELoss, so the loss stays float32
source: https://github.com/chainer/chainer/issues/126
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import io

import numpy as np
import pandas as pd
import torch
import torch.nn as nn

rng = np.random.default_rng(7)
raw = rng.uniform(0, 5, size=(400, 3))
ref = 1.8 * raw[:, 0] - 0.4 * raw[:, 1] + rng.normal(0, 0.05, 400)
buf = io.StringIO()
pd.DataFrame({"v_a": raw[:, 0], "v_b": raw[:, 1], "temp": raw[:, 2], "reference": ref}).to_csv(buf, index=False)
buf.seek(0)
df = pd.read_csv(buf, dtype={"v_a": np.float32, "v_b": np.float32, "temp": np.float32})
X = torch.from_numpy(df[["v_a", "v_b", "temp"]].to_numpy())
Y = torch.from_numpy(df[["reference"]].values)

model = nn.Sequential(nn.Linear(3, 32), nn.Tanh(), nn.Linear(32, 1))
criterion = nn.MSELoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(200):
    pred = model(X)
    loss = criterion(pred, Y.to(pred))
    opt.zero_grad()
    loss.backward()
    opt.step()
assert loss.dtype == torch.float32
print(f"final loss {loss.item():.4f} ({loss.dtype})")
