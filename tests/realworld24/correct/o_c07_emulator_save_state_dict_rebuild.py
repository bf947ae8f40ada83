"""Simulator-emulation quickstart that saves only the GP emulator's state_dict plus plain hyperparameters (ints), rebuilds the module class and loads the weights with torch.load's default weights_only=True
source: https://github.com/alan-turing-institute/autoemulate/pull/522
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn


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


def save(model, path):
    torch.save({"state_dict": model.state_dict(), "n_inducing": model.inducing.shape[0], "n_in": model.inducing.shape[1]}, path)


def load(path):
    ckpt = torch.load(path)
    model = GPEmulator(ckpt["n_inducing"], ckpt["n_in"])
    model.load_state_dict(ckpt["state_dict"])
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.rand(64, 2)
    y = torch.sin(3 * x[:, :1]) + x[:, 1:] ** 2
    gp = GPEmulator()
    opt = torch.optim.Adam(gp.parameters(), lr=0.05)
    for _ in range(50):
        loss = ((gp(x) - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    path = os.path.join(tempfile.mkdtemp(), "gp_final.pt")
    save(gp, path)
    print("restored prediction", load(path)(x[:2]).squeeze().tolist())
