"""Flow proposal run in double precision on purpose: configure_precision() reads "float64" from the config dataclass and calls torch.set_default_dtype before the flow and its optimizer are built, so the flow and the live points made with torch.get_default_dtype() are both float64
source: https://github.com/mj-will/nessai/pull/108
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn


@dataclass
class FlowConfig:
    dims: int = 4
    hidden: int = 32
    precision: str = "float64"


def configure_precision(cfg):
    torch.set_default_dtype(getattr(torch, cfg.precision))


class FlowProposal:
    def __init__(self, cfg):
        self.flow = nn.Sequential(nn.Linear(cfg.dims, cfg.hidden), nn.Tanh(), nn.Linear(cfg.hidden, 2 * cfg.dims))
        self.optimizer = torch.optim.Adam(self.flow.parameters(), lr=1e-3)

    def train(self, live_points, epochs=3):
        x = torch.tensor(live_points, dtype=torch.get_default_dtype())
        for epoch in range(epochs):
            s, t = self.flow(x).chunk(2, dim=1)
            z = x * torch.exp(s) + t
            loss = -(-0.5 * (z**2).sum(1) + s.sum(1)).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            print(f"epoch {epoch}: loss {loss.item():.4f} ({loss.dtype})")


cfg = FlowConfig()
configure_precision(cfg)
proposal = FlowProposal(cfg)
proposal.train(np.random.default_rng(0).normal(size=(128, cfg.dims)))
