"""DeepAR-like traffic forecaster whose dataset exposes covariates and target as @property accessors that both pass dtype=torch.float32 to torch.tensor, plus a register_buffer scale constant; the MSE loss is float32
source: https://github.com/sktime/pytorch-forecasting/issues/574
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
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
        return torch.tensor(self.frame[["hour", "dow"]].values, dtype=torch.float32)

    @property
    def target(self):
        return torch.tensor(self.frame["occupancy"].values, dtype=torch.float32)


class DeepARLite(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.register_buffer("cov_scale", torch.tensor([23.0, 6.0]))
        self.rnn = nn.GRU(3, hidden, batch_first=True)
        self.mu = nn.Linear(hidden, 1)

    def forward(self, cov, prev_target):
        h, _ = self.rnn(torch.cat([cov / self.cov_scale, prev_target.unsqueeze(-1)], -1))
        return self.mu(h).squeeze(-1)


ds = OccupancySeries()
cov, y = ds.covariates, ds.target
model = DeepARLite()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(3):
    loss = nn.functional.mse_loss(model(cov[1:].unsqueeze(0), y[:-1].unsqueeze(0)), y[1:].unsqueeze(0))
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
print(f"loss dtype {loss.dtype}, loss {loss.item():.5f}")
