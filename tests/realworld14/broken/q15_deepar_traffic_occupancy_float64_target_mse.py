"""DeepAR-like traffic-occupancy forecaster: the dataset's target property returns torch.tensor(self.frame["occupancy"].values) (float64) while the inputs are cast to float32; the Gaussian-mean MSE runs silently in float64
source: https://github.com/sktime/pytorch-forecasting/issues/574
reported-error: Float/Double dtypes mismatch when running predict() with DeepAR on Traffic
outcome: ok (silent: mse_loss(mu, target) at line 47 promotes to a float64 loss, printed as "loss dtype torch.float64")
root-cause: line 27
expect: DG008
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


class OccupancySeries:
    def __init__(self, n=300, seed=0):
        rng = np.random.default_rng(seed)
        t = np.arange(n)
        self.frame = pd.DataFrame({"hour": t % 24, "dow": (t // 24) % 7,
                                   "occupancy": np.clip(0.3 + 0.2 * np.sin(t / 24 * 2 * np.pi) + 0.05 * rng.normal(size=n), 0, 1)})

    @property
    def covariates(self):
        return torch.tensor(self.frame[["hour", "dow"]].values / np.array([23.0, 6.0]), dtype=torch.float32)

    @property
    def target(self):
        return torch.tensor(self.frame["occupancy"].values)  # root-cause


class DeepARLite(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.rnn = nn.GRU(3, hidden, batch_first=True)
        self.mu = nn.Linear(hidden, 1)

    def forward(self, cov, prev_target):
        h, _ = self.rnn(torch.cat([cov, prev_target.float().unsqueeze(-1)], -1))
        return self.mu(h).squeeze(-1)


ds = OccupancySeries()
cov, y = ds.covariates, ds.target
model = DeepARLite()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    mu = model(cov[1:].unsqueeze(0), y[:-1].unsqueeze(0))
    loss = nn.functional.mse_loss(mu, y[1:].unsqueeze(0))  # fails-here
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss dtype {loss.dtype}, loss {loss.item():.5f}")
