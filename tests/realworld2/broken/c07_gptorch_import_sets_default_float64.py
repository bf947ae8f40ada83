"""Deep-kernel regression: importing the GP package (here inlined) flips the default dtype to float64 after the feature net exists
source: https://github.com/cics-nd/gptorch/issues/22
reported-error: none quoted (a failing test: torch's default dtype is float64 after `import gptorch`)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 32
root-cause: line 17
expect: DG001
"""
import math

import torch
import torch.nn as nn


# --- gptorch/__init__.py + gptorch/util.py (inlined) -----------------------------------------
def import_gptorch():
    """What `import gptorch` does as a side effect at import time (see the issue)."""
    torch.set_default_dtype(torch.float64)  # root-cause
    return type("gptorch", (), {"TensorType": torch.Tensor, "torch_dtype": torch.get_default_dtype()})


def squared_exponential(x1, x2, lengthscale, variance):
    d2 = (x1[:, None, :] - x2[None, :, :]).pow(2).sum(-1)
    return variance * torch.exp(-0.5 * d2 / lengthscale ** 2)


class FeatureExtractor(nn.Module):
    def __init__(self, d_in=1, d_hidden=16, d_out=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, d_hidden), nn.Tanh(), nn.Linear(d_hidden, d_out))

    def forward(self, x):
        return self.net(x)  # fails-here


def main():
    torch.manual_seed(0)
    feature_extractor = FeatureExtractor()

    gptorch = import_gptorch()  # the script did `import gptorch` here, after building the feature net
    log_lengthscale = nn.Parameter(torch.zeros(()))
    log_variance = nn.Parameter(torch.zeros(()))
    log_noise = nn.Parameter(torch.tensor(-2.0))

    x = torch.linspace(0, 2 * math.pi, 40).unsqueeze(-1)
    y = torch.sin(x).squeeze(-1) + 0.1 * torch.randn(40)

    params = list(feature_extractor.parameters()) + [log_lengthscale, log_variance, log_noise]
    optimizer = torch.optim.Adam(params, lr=1e-2)
    for it in range(20):
        optimizer.zero_grad()
        z = feature_extractor(x)
        K = squared_exponential(z, z, log_lengthscale.exp(), log_variance.exp())
        K = K + (log_noise.exp() + 1e-6) * torch.eye(len(x))
        L = torch.linalg.cholesky(K)
        alpha = torch.cholesky_solve(y.unsqueeze(-1), L)
        nll = 0.5 * (y.unsqueeze(-1) * alpha).sum() + torch.log(torch.diagonal(L)).sum()
        nll.backward()
        optimizer.step()
    print("final nll", nll.item(), gptorch.torch_dtype)


if __name__ == "__main__":
    main()
