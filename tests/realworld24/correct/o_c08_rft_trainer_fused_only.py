"""Reinforcement fine-tuning trainer whose experiment config sets fused=True and leaves foreach unset (None), so only the switches the user gave are forwarded and AdamW runs its fused CPU implementation
source: https://github.com/agentscope-ai/Trinity-RFT/pull/613
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn

EXPERIMENT_YAML = {"actor": {"optim": {"lr": 1e-5, "weight_decay": 0.01, "fused": True}}}


@dataclass
class OptimizerConfig:
    lr: float = 1e-6
    weight_decay: float = 0.0
    fused: Optional[bool] = None
    foreach: Optional[bool] = None


class TinyPolicy(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        return self.lm_head(self.emb(tokens))


def build_optimizer(model, cfg):
    kwargs = {"lr": cfg.lr, "weight_decay": cfg.weight_decay}
    for name in ("fused", "foreach"):
        if getattr(cfg, name) is not None:
            kwargs[name] = getattr(cfg, name)
    return torch.optim.AdamW(model.parameters(), **kwargs)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = OptimizerConfig(**EXPERIMENT_YAML["actor"]["optim"])
    policy = TinyPolicy()
    optimizer = build_optimizer(policy, cfg)
    tokens, advantages = torch.randint(0, 50, (4, 12)), torch.randn(4)
    logp = torch.log_softmax(policy(tokens[:, :-1]), -1).gather(-1, tokens[:, 1:, None]).squeeze(-1)
    loss = -(logp * advantages[:, None]).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"pg loss {loss.item():.4f}")
