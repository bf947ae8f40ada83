"""Nested-sampling style flow proposal (config dataclass, ModuleList of coupling blocks): the float32 flow and its optimizer are built first, then proposal.configure_precision() calls torch.set_default_dtype(float64) from the config, so the live points made with dtype=torch.get_default_dtype() are float64 and the first coupling Linear rejects them
source: https://github.com/mj-will/nessai/pull/108
reported-error: tensors passed to the flow take torch.get_default_dtype(); torch.set_default_dtype(torch.float64) is how a user asks for double precision, so it must happen before the flow exists
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 31
root-cause: line 56
expect: DG001
"""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn


@dataclass
class FlowConfig:
    dims: int = 4
    hidden: int = 32
    n_blocks: int = 2
    precision: str = "float64"


class CouplingBlock(nn.Module):
    def __init__(self, dims, hidden):
        super().__init__()
        self.half = dims // 2
        self.net = nn.Sequential(nn.Linear(self.half, hidden), nn.Tanh(), nn.Linear(hidden, 2 * (dims - self.half)))

    def forward(self, x):
        a, b = x[:, : self.half], x[:, self.half :]
        s, t = self.net(a).chunk(2, dim=1)  # fails-here
        return torch.cat([a, b * torch.exp(s) + t], dim=1), s.sum(1)


class FlowModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.blocks = nn.ModuleList(CouplingBlock(cfg.dims, cfg.hidden) for _ in range(cfg.n_blocks))

    def forward(self, x):
        log_j = torch.zeros(x.shape[0], dtype=x.dtype)
        for block in self.blocks:
            x, lj = block(x)
            x = x.flip(1)
            log_j = log_j + lj
        return x, log_j


class FlowProposal:
    def __init__(self, cfg):
        self.cfg = cfg
        self.flow = FlowModel(cfg)
        self.optimizer = torch.optim.Adam(self.flow.parameters(), lr=1e-3)

    def configure_precision(self):
        torch.set_default_dtype(getattr(torch, self.cfg.precision))  # root-cause

    def to_tensor(self, live_points):
        return torch.tensor(live_points, dtype=torch.get_default_dtype())

    def train(self, live_points, epochs=3):
        x = self.to_tensor(live_points)
        for epoch in range(epochs):
            z, log_j = self.flow(x)
            loss = -(-0.5 * (z**2).sum(1) + log_j).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    cfg = FlowConfig()
    proposal = FlowProposal(cfg)
    proposal.configure_precision()
    live = np.random.default_rng(0).normal(size=(128, cfg.dims))
    proposal.train(live)
