"""Reinforcement fine-tuning trainer whose optimizer config exposes both PyTorch implementation switches; the experiment YAML turns on fused (for speed) and also foreach (copied from an older recipe), and AdamW refuses the pair when the actor's optimizer is built
source: https://github.com/agentscope-ai/Trinity-RFT/pull/613
reported-error: feat(config): add fused and foreach optimizer controls (explicit control of the fused and foreach optimizer implementations; both forwarded to the FSDP override_optimizer_config)
outcome: RuntimeError: `fused` and `foreach` cannot be `True` together. at line 55
root-cause: line 15
expect: DG016
"""
from dataclasses import dataclass, field
from typing import Optional

import torch
import torch.nn as nn

EXPERIMENT_YAML = {
    "actor": {"optim": {"lr": 1e-5, "weight_decay": 0.01, "fused": True, "foreach": True}},  # root-cause
}


# ---- trinity/common/config.py
@dataclass
class OptimizerConfig:
    lr: float = 1e-6
    weight_decay: float = 0.0
    betas: tuple = (0.9, 0.999)
    fused: Optional[bool] = None
    foreach: Optional[bool] = None


@dataclass
class ActorConfig:
    optim: OptimizerConfig = field(default_factory=OptimizerConfig)


def load_config(raw):
    return ActorConfig(optim=OptimizerConfig(**raw["actor"]["optim"]))


# ---- trinity/trainer/actor.py
class TinyPolicy(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        return self.lm_head(self.emb(tokens))


def build_optimizer(model, cfg: OptimizerConfig):
    kwargs = {"lr": cfg.lr, "weight_decay": cfg.weight_decay, "betas": cfg.betas}
    if cfg.fused is not None:
        kwargs["fused"] = cfg.fused
    if cfg.foreach is not None:
        kwargs["foreach"] = cfg.foreach
    return torch.optim.AdamW(model.parameters(), **kwargs)  # fails-here


def train_step(model, optimizer, tokens, advantages):
    logp = torch.log_softmax(model(tokens[:, :-1]), -1).gather(-1, tokens[:, 1:, None]).squeeze(-1)
    loss = -(logp * advantages[:, None]).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = load_config(EXPERIMENT_YAML)
    policy = TinyPolicy()
    optimizer = build_optimizer(policy, cfg.optim)
    print(f"pg loss {train_step(policy, optimizer, torch.randint(0, 50, (4, 12)), torch.randn(4)):.4f}")
