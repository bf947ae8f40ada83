"""Benchmark of a neural-network surrogate against the scientific-value agent's Gaussian processes (matthewcarbone/ScientificValueAgent: importing sva.models runs torch.set_default_dtype(torch.float64) and sets DEVICE before exposing EasySingleTaskGP): the experiment builds its float32 MLP surrogate from a dataclass config first and imports sva.models lazily inside the campaign function, so the global default flips to float64 after the MLP exists and the grid made afterwards with torch.linspace is float64
source: https://github.com/matthewcarbone/ScientificValueAgent/blob/fe74fe0d653b241598779c0d3d96b8e142aa8e97/sva/models/__init__.py
reported-error: (none filed; sva.models sets the process-wide default dtype at import time; the experiment script around it is written for this set and fails at the first surrogate forward after the import)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 66
root-cause: line 18
expect: DG001
"""
from dataclasses import dataclass, field
from types import SimpleNamespace

import numpy as np
import torch
import torch.nn as nn


# ---- sva/models/__init__.py (executed by the first `import sva.models`; a function here so the import can be late)
def import_sva_models():
    torch.set_default_dtype(torch.float64)  # root-cause
    DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    class EasySingleTaskGP:
        """Stand-in for sva.models.gp.gp.EasySingleTaskGP (botorch SingleTaskGP with an RBF kernel)."""
        def __init__(self, X, Y, lengthscale=0.1, noise=1e-4):
            self.X, self.Y, self.ls, self.noise = X, Y, lengthscale, noise

        @classmethod
        def from_default(cls, X, Y):
            return cls(X, Y)

        def _k(self, a, b):
            return torch.exp(-0.5 * torch.cdist(a, b) ** 2 / self.ls ** 2)

        def predict(self, X):
            K = self._k(self.X, self.X) + self.noise * torch.eye(len(self.X))
            return self._k(X, self.X) @ torch.linalg.solve(K, self.Y)

    return SimpleNamespace(EasySingleTaskGP=EasySingleTaskGP, DEVICE=DEVICE)


# ---- the experiment
@dataclass
class SurrogateConfig:
    in_features: int = 1
    hidden: list = field(default_factory=lambda: [32, 32])
    lr: float = 1e-2
    epochs: int = 50


def build_surrogate(cfg: SurrogateConfig):
    layers, width = [], cfg.in_features
    for h in cfg.hidden:
        layers += [nn.Linear(width, h), nn.Tanh()]
        width = h
    layers.append(nn.Linear(width, 1))
    return nn.Sequential(*layers)


def truth(x):
    return np.sin(6 * x) + 0.5 * x


def fit_surrogate(model, X, Y, cfg):
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for _ in range(cfg.epochs):
        opt.zero_grad()
        loss = ((model(X) - Y) ** 2).mean()  # fails-here
        loss.backward()
        opt.step()
    return loss.item()


def campaign(model, cfg, n_init=8, seed=0):
    sva_models = import_sva_models()          # `from sva.models import EasySingleTaskGP`
    rng = np.random.default_rng(seed)
    x0 = rng.random(n_init)
    X = torch.tensor(x0).unsqueeze(1)
    Y = torch.tensor(truth(x0)).unsqueeze(1)
    gp = sva_models.EasySingleTaskGP.from_default(X, Y)
    grid = torch.linspace(0, 1, 101).unsqueeze(1)
    gp_err = (gp.predict(grid) - torch.tensor(truth(grid.numpy()))).abs().mean().item()
    grid_train = torch.linspace(0, 1, 64).unsqueeze(1)
    mse = fit_surrogate(model, grid_train, torch.sin(6 * grid_train) + 0.5 * grid_train, cfg)
    print(f"GP mean abs error {gp_err:.3f}; surrogate train mse {mse:.4f}")


if __name__ == "__main__":
    cfg = SurrogateConfig()
    torch.manual_seed(0)
    surrogate = build_surrogate(cfg)
    campaign(surrogate, cfg)
