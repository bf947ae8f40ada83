"""pfhedge-style hedger: the strike grid is registered as a buffer straight from a numpy array (float64), so the feature matrix built from it in forward is float64 and hits the float32 MLP
source: https://github.com/pfnet-research/pfhedge/issues/278
reported-error: MAINT: assure buffer is registered with the desired dtype and device (register_buffer did not guarantee self.dtype)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 25
root-cause: line 16
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


class MultiStrikeHedger(nn.Module):
    def __init__(self, strikes, hidden=32):
        super().__init__()
        self.register_buffer("strikes", torch.as_tensor(np.asarray(strikes)))  # root-cause
        self.mlp = nn.Sequential(nn.Linear(len(strikes) + 1, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def features(self, log_moneyness, time_to_maturity):
        spot = log_moneyness.exp().unsqueeze(-1)
        payoff_proxy = torch.relu(spot - self.strikes)
        return torch.cat([payoff_proxy, time_to_maturity.unsqueeze(-1)], dim=-1)

    def forward(self, log_moneyness, time_to_maturity):
        return self.mlp(self.features(log_moneyness, time_to_maturity)).squeeze(-1)  # fails-here


def simulate(n_paths=256, seed=0):
    g = torch.Generator().manual_seed(seed)
    log_m = 0.2 * torch.randn(n_paths, generator=g)
    ttm = torch.rand(n_paths, generator=g)
    pnl_target = torch.relu(log_m.exp() - 1.0)
    return log_m, ttm, pnl_target


def fit(hedger, epochs=3):
    log_m, ttm, target = simulate()
    opt = torch.optim.Adam(hedger.parameters(), lr=1e-3)
    for epoch in range(epochs):
        loss = ((hedger(log_m, ttm) - target) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    fit(MultiStrikeHedger(strikes=np.linspace(0.8, 1.2, 5)))
