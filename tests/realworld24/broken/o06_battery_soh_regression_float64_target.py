"""Battery state-of-health regression from cycling statistics: the features are cast to float32 for the network, but the target column is handed to MSELoss as torch.from_numpy(df['soh'].values), float64, so the loss (and its backward) silently run in double precision
source: https://github.com/pytorch/pytorch/issues/94086
reported-error: MSELoss with a float32 input and a float64 target returns tensor(..., dtype=torch.float64) (and jacobian through it fails with Found dtype Double but expected Float)
outcome: ok (silent: the MSE at line 38 mixes float32 predictions with a float64 target and is float64, printed as "loss dtype torch.float64")
root-cause: line 29
expect: DG008
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


def load_cycles(n=200, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "cycle": np.arange(n),
        "v_mean": 3.7 + 0.05 * rng.standard_normal(n),
        "t_mean": 25 + rng.standard_normal(n),
    })
    df["soh"] = 1.0 - 0.001 * df["cycle"] + 0.01 * rng.standard_normal(n)
    return df


def to_tensors(df):
    feats = df[["cycle", "v_mean", "t_mean"]].to_numpy()
    feats = (feats - feats.mean(0)) / feats.std(0)
    x = torch.from_numpy(feats).float()
    y = torch.from_numpy(df["soh"].values).unsqueeze(1)  # root-cause
    return x, y


def train(x, y, epochs=5):
    model = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        loss = criterion(model(x), y)  # fails-here
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss dtype", loss.dtype, f"value {loss.item():.5f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(*to_tensors(load_cycles()))
