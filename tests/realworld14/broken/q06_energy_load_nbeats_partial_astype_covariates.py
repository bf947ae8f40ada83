"""N-BEATS style energy-load forecaster: prepare_frame() casts only the target column with astype(np.float32) and leaves the temperature covariate float64, so the window generator's np.concatenate of target and covariate windows is float64 and the first float32 block fails
source: https://github.com/h3ik0th/ES_energy_Transformer/issues/1
reported-error: RuntimeError: expected scalar type Float but found Double
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 41
root-cause: line 20
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


def prepare_frame(n=400, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    df = pd.DataFrame({"load": 50 + 10 * np.sin(t / 24 * 2 * np.pi) + rng.normal(size=n),
                       "temp": 15 + 8 * np.sin(t / 240 * 2 * np.pi)})
    df["load"] = df["load"].astype(np.float32)
    df["temp"] = (df["temp"] - df["temp"].mean()) / df["temp"].std()  # root-cause
    return df


def windows(df, lookback, horizon, batch_size):
    load, temp = df["load"].to_numpy(), df["temp"].to_numpy()
    starts = np.arange(len(df) - lookback - horizon)
    for i in range(0, len(starts), batch_size):
        idx = starts[i:i + batch_size]
        x = np.stack([np.concatenate([load[s:s + lookback], temp[s:s + lookback]]) for s in idx])
        y = np.stack([load[s + lookback:s + lookback + horizon] for s in idx])
        yield torch.from_numpy(x), torch.from_numpy(y)


class NBeatsBlock(nn.Module):
    def __init__(self, in_dim, horizon, width=64):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(in_dim, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU())
        self.forecast = nn.Linear(width, horizon)

    def forward(self, x):
        return self.forecast(self.fc(x))  # fails-here


lookback, horizon = 48, 12
df = prepare_frame()
model = NBeatsBlock(2 * lookback, horizon)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    for x, y in windows(df, lookback, horizon, batch_size=32):
        loss = nn.functional.l1_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: mae {loss.item():.3f}")
