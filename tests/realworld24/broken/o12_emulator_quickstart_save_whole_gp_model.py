"""Simulator-emulation quickstart (autoemulate tutorial layout): the fitted Gaussian-process emulator is saved with torch.save(self.model), pickling the whole module and its likelihood class, and the tutorial's load step uses torch.load's default weights_only=True, which refuses the custom classes
source: https://github.com/alan-turing-institute/autoemulate/pull/522
reported-error: autoemulate - Failed to load model from gp_final: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL gpytorch.likelihoods.multitask_gaussian_likelihood.MultitaskGaussianLikelihood was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.GPEmulator was not an allowed global by default. ... at line 46
root-cause: line 41
expect: DG011
"""
import os
import tempfile

import torch
import torch.nn as nn


# ---- autoemulate/emulators/gaussian_process.py
class GaussianLikelihood(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_noise = nn.Parameter(torch.tensor(-2.0))


class GPEmulator(nn.Module):
    def __init__(self, n_inducing=16, n_in=2):
        super().__init__()
        self.inducing = nn.Parameter(torch.rand(n_inducing, n_in))
        self.raw_lengthscale = nn.Parameter(torch.zeros(1))
        self.weights = nn.Parameter(torch.zeros(n_inducing, 1))
        self.likelihood = GaussianLikelihood()

    def forward(self, x):
        d = torch.cdist(x, self.inducing) / nn.functional.softplus(self.raw_lengthscale)
        return torch.exp(-0.5 * d ** 2) @ self.weights


# ---- autoemulate/save.py
class ModelSerialiser:
    def __init__(self, model):
        self.model = model

    def save(self, path):
        torch.save(self.model, path)  # root-cause
        return path

    @staticmethod
    def load(path):
        return torch.load(path)  # fails-here


def fit(model, x, y, steps=50):
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for _ in range(steps):
        loss = ((model(x) - y) ** 2).mean() + nn.functional.softplus(model.likelihood.raw_noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.rand(64, 2)
    y = torch.sin(3 * x[:, :1]) + x[:, 1:] ** 2
    gp = GPEmulator()
    print(f"fit loss {fit(gp, x, y):.4f}")
    path = ModelSerialiser(gp).save(os.path.join(tempfile.mkdtemp(), "gp_final.pt"))
    restored = ModelSerialiser.load(path)
    print("restored prediction", restored(x[:2]).squeeze().tolist())
