"""Hydra-style config (cfg.trainer.precision as the string "32") mapped through a dict to a legacy tensor-type name and applied with torch.set_default_tensor_type inside apply_precision(); on torch 2.x this only emits a deprecation warning
source: https://github.com/pytorch/xla/pull/5734
reported-error: UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 31
expect: DG002
"""
import torch
import torch.nn as nn


class DictConfig(dict):
    """Tiny stand-in for an OmegaConf DictConfig: attribute access on nested dicts."""

    def __getattr__(self, key):
        value = self[key]
        return DictConfig(value) if isinstance(value, dict) else value


TENSOR_TYPES = {"32": "torch.FloatTensor", "64": "torch.DoubleTensor"}

cfg = DictConfig({
    "trainer": {"precision": "32", "max_steps": 5},
    "model": {"in_dim": 12, "hidden": 24, "out_dim": 3},
    "optim": {"lr": 3e-3},
})


def apply_precision(cfg):
    tensor_type = TENSOR_TYPES[str(cfg.trainer.precision)]
    torch.set_default_tensor_type(tensor_type)  # root-cause


def build(cfg):
    m = cfg.model
    return nn.Sequential(nn.Linear(m.in_dim, m.hidden), nn.GELU(), nn.Linear(m.hidden, m.out_dim))


def fit(cfg):
    apply_precision(cfg)
    model = build(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.optim.lr)
    x = torch.randn(40, cfg.model.in_dim)
    y = torch.randint(0, cfg.model.out_dim, (40,))
    for step in range(cfg.trainer.max_steps):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


print("final loss", fit(cfg), "default dtype", torch.get_default_dtype())
