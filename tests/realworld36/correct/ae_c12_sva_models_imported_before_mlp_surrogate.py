"""Benchmark of a neural-network surrogate against the scientific-value agent's Gaussian processes (matthewcarbone/ScientificValueAgent sva/models/__init__.py sets torch.set_default_dtype(torch.float64) at import) with sva.models imported at the top of the script, before build_surrogate(cfg) makes the nn.Sequential: the MLP is float64 like the GP data and the torch.linspace grids, and the import's process-wide default change affects nothing that already existed
source: https://github.com/matthewcarbone/ScientificValueAgent/blob/fe74fe0d653b241598779c0d3d96b8e142aa8e97/sva/models/__init__.py
reported-error: (none filed; fixed version of ae12: the import that changes the default dtype runs before any model is built)
outcome: ok
root-cause: -
expect: none
"""
from dataclasses import dataclass, field
from types import SimpleNamespace

import numpy as np
import torch
import torch.nn as nn


# ---- sva/models/__init__.py (executed by the first `import sva.models`; a function here so the import can be late)
def import_sva_models():
    torch.set_default_dtype(torch.float64)
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
        loss = ((model(X) - Y) ** 2).mean()
        loss.backward()
        opt.step()
    return loss.item()


def campaign(model, cfg, sva_models, n_init=8, seed=0):
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
    sva_models = import_sva_models()          # `from sva.models import EasySingleTaskGP`, at the top of the script
    cfg = SurrogateConfig()
    torch.manual_seed(0)
    surrogate = build_surrogate(cfg)
    campaign(surrogate, cfg, sva_models)
    print("surrogate dtype:", next(surrogate.parameters()).dtype)
