"""Detectron-style optimizer builder: the solver config already asks for the multi-tensor path (FOREACH: True), and a new FUSED option (set in the experiment's override) is passed straight through to torch.optim.AdamW as well, so the optimizer constructor rejects the two flags together
source: https://github.com/facebookresearch/d2go/pull/471
reported-error: the PR adds an option to use the fused AdamW implementation; it cannot be the default because fused has restrictions of its own (it replaces the foreach path rather than combining with it)
outcome: RuntimeError: `fused` and `foreach` cannot be `True` together. at line 34
root-cause: line 37
expect: DG016
"""
import copy

import torch
import torch.nn as nn

BASE_CFG = {"SOLVER": {"BASE_LR": 1e-3, "WEIGHT_DECAY": 0.05, "OPTIMIZER": "adamw", "FOREACH": True, "FUSED": False}}


def merge(base, override):
    cfg = copy.deepcopy(base)
    for section, values in override.items():
        cfg[section].update(values)
    return cfg


def get_optimizer_param_groups(model, weight_decay):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if p.ndim == 1 else decay).append(p)
    return [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]


def build_optimizer(cfg, model):
    solver = cfg["SOLVER"]
    groups = get_optimizer_param_groups(model, solver["WEIGHT_DECAY"])
    kwargs = {"lr": solver["BASE_LR"], "foreach": solver["FOREACH"], "fused": solver["FUSED"]}
    return torch.optim.AdamW(groups, **kwargs)  # fails-here


experiment_override = {"SOLVER": {"FUSED": True}}  # root-cause
cfg = merge(BASE_CFG, experiment_override)
model = nn.Sequential(nn.Linear(16, 32), nn.LayerNorm(32), nn.Linear(32, 4))
optimizer = build_optimizer(cfg, model)
for step in range(3):
    loss = model(torch.randn(8, 16)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
