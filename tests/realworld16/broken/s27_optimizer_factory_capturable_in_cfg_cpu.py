"""Training script whose get_optimizer(cfg, model) builds Adam from a SimpleNamespace config that always sets capturable=True (copied from a CUDA-graph recipe); the run happens on the CPU and the first step fails on the capturable device check
source: https://github.com/pytorch/pytorch/pull/124919
reported-error: AssertionError: If capturable=True, params and state_steps must be CUDA tensors.
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at line 28
root-cause: line 34
expect: DG016
"""
from types import SimpleNamespace

import torch
import torch.nn as nn


def get_model(cfg):
    return nn.Sequential(nn.Linear(cfg.in_dim, cfg.hidden), nn.Tanh(), nn.Linear(cfg.hidden, 1)).to(cfg.device)


def get_optimizer(cfg, model):
    return torch.optim.Adam(model.parameters(), lr=cfg.lr, betas=cfg.betas, capturable=cfg.capturable)


def train(cfg, model, optimizer):
    for step in range(cfg.steps):
        x = torch.randn(32, cfg.in_dim, device=cfg.device)
        loss = (model(x).squeeze(-1) - x.mean(-1)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
    return loss.item()


cfg = SimpleNamespace(in_dim=10, hidden=32, lr=1e-3, betas=(0.9, 0.95), steps=3,
                      device="cuda" if torch.cuda.is_available() else "cpu",
                      capturable=True)  # root-cause
model = get_model(cfg)
print("loss", train(cfg, model, get_optimizer(cfg, model)))
