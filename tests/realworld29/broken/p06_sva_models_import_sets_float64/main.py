"""Autonomous-experiment campaign with a learned featurizer and a GP surrogate (matthewcarbone/ScientificValueAgent layout: sva/models/__init__.py runs torch.set_default_dtype(torch.float64) on import): the campaign imports sva.models lazily, after the float32 featurizer exists, so every tensor drawn afterwards is float64 and the featurizer's nn.Linear in featurizer.py rejects it
source: https://github.com/matthewcarbone/ScientificValueAgent/blob/fe74fe0d653b241598779c0d3d96b8e142aa8e97/sva/models/__init__.py
reported-error: (the repository file itself: importing sva.models switches the process-wide default dtype to float64; modules built before the import keep float32 weights -> RuntimeError: mat1 and mat2 must have the same dtype)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at featurizer.py:12
root-cause: sva/models/__init__.py:3
expect: DG001
"""
import torch

from featurizer import Featurizer


def truth(x):
    return torch.sin(3 * x[:, :1]) + 0.5 * torch.cos(5 * x[:, 1:])


def run_campaign(featurizer, n_init=6, n_steps=3):
    from sva.models import EasyGP  # lazy: the GP stack is only needed once the campaign starts

    X = torch.rand(n_init, 2)
    Y = truth(X)
    for step in range(n_steps):
        with torch.no_grad():
            Z = featurizer(X)
        gp = EasyGP(Z, Y)
        candidates = torch.rand(64, 2)
        with torch.no_grad():
            mean, var = gp.predict(featurizer(candidates))
        best = candidates[(mean + var.sqrt()).argmax()]
        X = torch.cat([X, best[None]])
        Y = torch.cat([Y, truth(best[None])])
        print(f"step {step}: best so far {Y.max().item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    featurizer = Featurizer(2, 8)
    run_campaign(featurizer)
