"""PPO critic fine-tuning with a bfloat16 model (AReaL-like FSDP engine simplified to one process): the engine loads the value network in the compute dtype and builds torch.optim.AdamW straight from model.parameters(), so weights, exp_avg and exp_avg_sq all live in bfloat16 and most small updates round away
source: https://github.com/areal-project/AReaL/pull/1369
reported-error: torch.optim.AdamW silently inherits bf16 dtype from model.parameters(), causing late-stage SFT loss to plateau ~3x higher (fix: fp32 master weights)
outcome: ok (silent: after 25 AdamW steps at lr=1e-5 only a minority of the bfloat16 weights changed at all, printed as "weights changed: N/M"; the updates applied at line 45 round away)
root-cause: line 37
expect: DG013
"""
import argparse
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class EngineConfig:
    dtype: str = "bfloat16"
    lr: float = 1e-5
    weight_decay: float = 0.01
    steps: int = 25


class ValueHead(nn.Module):
    def __init__(self, obs_dim=64, hidden=128):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        return self.v(self.body(obs)).squeeze(-1)


class FSDPEngine:
    def __init__(self, config):
        self.config = config
        dtype = getattr(torch, config.dtype)
        self.model = ValueHead().to(dtype)  # root-cause
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=config.lr, weight_decay=config.weight_decay)

    def train_batch(self, obs, returns):
        values = self.model(obs.to(next(self.model.parameters()).dtype))
        loss = 0.5 * (values.float() - returns).pow(2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()  # fails-here
        return loss.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dtype", default="bfloat16")
    args = parser.parse_args([])
    torch.manual_seed(0)
    engine = FSDPEngine(EngineConfig(dtype=args.dtype))
    before = [p.detach().clone() for p in engine.model.parameters()]
    obs = torch.randn(256, 64)
    returns = torch.randn(256)
    for step in range(engine.config.steps):
        loss = engine.train_batch(obs, returns)
    changed = sum(int((p.detach() != b).sum()) for p, b in zip(engine.model.parameters(), before))
    total = sum(p.numel() for p in engine.model.parameters())
    print(f"final loss {loss:.4f}; weights changed: {changed}/{total}")


if __name__ == "__main__":
    main()
