"""Autonomous-experiment campaign whose main.py imports sva.models (which sets torch.set_default_dtype(torch.float64) on import) before anything else, so the featurizer in featurizer.py is built in float64 and every tensor drawn later matches it
source: https://github.com/matthewcarbone/ScientificValueAgent/blob/fe74fe0d653b241598779c0d3d96b8e142aa8e97/sva/models/__init__.py
reported-error: (none: correct code)
outcome: ok (exit 0)
root-cause: -
expect: none
"""
import torch

from sva.models import EasyGP  # first: it sets the float64 default the whole campaign relies on
from featurizer import Featurizer  # noqa: I001


def truth(x):
    return torch.sin(3 * x[:, :1]) + 0.5 * torch.cos(5 * x[:, 1:])


def run_campaign(featurizer, n_init=6, n_steps=3):
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
