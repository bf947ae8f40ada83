"""Sequence-design surrogate whose encoder is built by a module-level registry at import time, while the dataclass config's precision="double" is applied with torch.set_default_dtype only in main(); the randomly initialised candidate features are then float64 and the float32 encoder rejects them
source: https://github.com/samuelstanton/lambo/issues/3
reported-error: RuntimeError: expected scalar type Float but found Double (switching the GP head inputs from torch.float to torch.double)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 45
root-cause: line 52
expect: DG001
"""
from dataclasses import dataclass, field

import torch
import torch.nn as nn

PRECISIONS = {"single": torch.float32, "double": torch.float64}
REGISTRY = {}


def register(name):
    def wrap(fn):
        REGISTRY[name] = fn()
        return fn
    return wrap


@register("cnn_encoder")
def build_encoder():
    return nn.Sequential(nn.Linear(20, 32), nn.GELU(), nn.Linear(32, 8))


@dataclass
class SurrogateConfig:
    encoder: str = "cnn_encoder"
    precision: str = "double"
    num_candidates: int = 24
    seq_len: int = 20
    noise: float = 1e-2
    lengthscale: float = 1.0
    tags: list = field(default_factory=lambda: ["lambo", "surrogate"])


def rbf(a, b, lengthscale):
    return torch.exp(-torch.cdist(a, b) ** 2 / (2 * lengthscale ** 2))


def posterior_mean(encoder, x_train, y_train, x_test, cfg):
    z_train, z_test = encoder(x_train), encoder(x_test)  # fails-here
    k = rbf(z_train, z_train, cfg.lengthscale) + cfg.noise * torch.eye(len(z_train))
    alpha = torch.linalg.solve(k, y_train)
    return rbf(z_test, z_train, cfg.lengthscale) @ alpha


def main(cfg):
    torch.set_default_dtype(PRECISIONS[cfg.precision])  # root-cause
    encoder = REGISTRY[cfg.encoder]
    x_train = torch.rand(cfg.num_candidates, cfg.seq_len)
    y_train = x_train.sum(-1, keepdim=True)
    x_test = torch.rand(6, cfg.seq_len)
    with torch.no_grad():
        mu = posterior_mean(encoder, x_train, y_train, x_test, cfg)
    print("posterior mean", mu.squeeze(-1))


if __name__ == "__main__":
    main(SurrogateConfig())
