"""Optimizer builder after the PR: when the solver config asks for the fused AdamW it drops the foreach flag (fused=True, foreach=None); the fused kernel runs on float32 CPU parameters in current PyTorch, so the same builder works on a laptop
source: https://github.com/facebookresearch/d2go/pull/471
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn

cfg = {"SOLVER": {"BASE_LR": 1e-3, "WEIGHT_DECAY": 0.05, "FOREACH": True, "FUSED": True}}


def build_optimizer(cfg, model):
    solver = cfg["SOLVER"]
    fused = solver["FUSED"]
    kwargs = {"lr": solver["BASE_LR"], "weight_decay": solver["WEIGHT_DECAY"], "fused": fused}
    kwargs["foreach"] = None if fused else solver["FOREACH"]
    return torch.optim.AdamW(model.parameters(), **kwargs)


model = nn.Sequential(nn.Linear(16, 32), nn.LayerNorm(32), nn.Linear(32, 4))
optimizer = build_optimizer(cfg, model)
for step in range(3):
    loss = model(torch.randn(8, 16)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
