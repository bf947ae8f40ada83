"""Deep-kernel regression: a float32 feature extractor is built first, then a gptorch-style GPR model whose constructor calls torch.set_default_dtype(torch.float64), so every tensor created afterwards (the test grid) is double
source: https://github.com/cics-nd/gptorch/pull/14
reported-error: surprising behaviour: torch.set_default_dtype() inside the package has a global effect on PyTorch code using other dtypes
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 46
root-cause: line 28
expect: DG001
"""
import numpy as np
import torch
import torch.nn as nn


class RBF:
    def __init__(self, input_dim, variance=1.0, length_scale=0.5):
        self.input_dim = input_dim
        self.variance = torch.tensor(variance)
        self.length_scale = torch.tensor(length_scale)

    def K(self, x1, x2):
        d = torch.cdist(x1 / self.length_scale, x2 / self.length_scale)
        return self.variance * torch.exp(-0.5 * d**2)


class GPR:
    """Exact GP regression in the style of gptorch.models.GPR (numpy in, torch inside)."""

    def __init__(self, x, y, kernel, likelihood_variance=1e-2):
        torch.set_default_dtype(torch.float64)  # root-cause
        self.X = torch.tensor(x)
        self.Y = torch.tensor(y)
        self.kernel = kernel
        self.noise = torch.tensor(likelihood_variance)

    def predict_f(self, x_new):
        kxx = self.kernel.K(self.X, self.X) + self.noise * torch.eye(len(self.X))
        kxs = self.kernel.K(self.X, x_new)
        return kxs.T @ torch.linalg.solve(kxx, self.Y)


class FeatureExtractor(nn.Module):
    def __init__(self, d_in=1, d_out=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 16), nn.Tanh(), nn.Linear(16, d_out))

    def forward(self, x):
        return self.net(x)  # fails-here


def main():
    rng = np.random.default_rng(0)
    feature_extractor = FeatureExtractor()
    x_train = rng.uniform(-3, 3, (30, 1))
    y_train = np.sin(x_train) + 0.1 * rng.standard_normal((30, 1))
    with torch.no_grad():
        z_train = feature_extractor(torch.tensor(x_train, dtype=torch.float32)).numpy()
    gp = GPR(z_train.astype(np.float64), y_train, RBF(input_dim=2))
    x_test = torch.linspace(-3, 3, 50).unsqueeze(-1)
    with torch.no_grad():
        z_test = feature_extractor(x_test)
        mean = gp.predict_f(z_test.double())
    print("predictive mean range", float(mean.min()), float(mean.max()))


if __name__ == "__main__":
    main()
