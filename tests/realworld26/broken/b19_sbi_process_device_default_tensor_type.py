"""Simulation-based inference run (sbi utils layout): process_device() picks the training device and, to make the density estimator's internal tensors follow it, sets the legacy global tensor type (torch.cuda.FloatTensor on a GPU, torch.FloatTensor otherwise) with the deprecated set_default_tensor_type before training a neural posterior estimator
source: https://github.com/sbi-dev/sbi/pull/1169
reported-error: UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives. (the GPU-warning refactor removed the call)
outcome: ok (silent: set_default_tensor_type at line 26 prints the deprecation UserWarning; on the CPU the call changes nothing else and training runs in float32)
root-cause: line 26
expect: DG002
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


# ---- sbi/utils/torchutils.py
def process_device(device):
    if device == "cpu":
        torch_type = "torch.FloatTensor"
    else:
        if not torch.cuda.is_available():
            warnings.warn(f"Device {device} requested but CUDA is not available; training on the CPU.")
            device, torch_type = "cpu", "torch.FloatTensor"
        else:
            torch_type = "torch.cuda.FloatTensor"
    torch.set_default_tensor_type(torch_type)  # root-cause  # fails-here
    return device


# ---- simulator and prior of a two-moons-like toy problem
def simulator(theta):
    a = torch.rand(theta.shape[0]) * 3.14159 - 1.57
    r = 0.1 + 0.01 * torch.randn(theta.shape[0])
    p = torch.stack([r * torch.cos(a) + 0.25, r * torch.sin(a)], 1)
    return p + torch.stack([-(theta[:, 0] + theta[:, 1]).abs(), -theta[:, 0] + theta[:, 1]], 1) / 2 ** 0.5


# ---- sbi/inference/snpe (a Gaussian posterior estimator)
class GaussianPosteriorNet(nn.Module):
    def __init__(self, x_dim=2, theta_dim=2, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(x_dim, hidden), nn.ReLU(), nn.Linear(hidden, 2 * theta_dim))

    def log_prob(self, theta, x):
        mean, log_std = self.net(x).chunk(2, -1)
        return (-0.5 * ((theta - mean) / log_std.exp()) ** 2 - log_std).sum(-1)


def train_npe(theta, x, device, epochs=3):
    estimator = GaussianPosteriorNet().to(device)
    optimizer = torch.optim.Adam(estimator.parameters(), lr=5e-4)
    loader = DataLoader(TensorDataset(theta, x), batch_size=50)
    for epoch in range(epochs):
        for theta_b, x_b in loader:
            loss = -estimator.log_prob(theta_b.to(device), x_b.to(device)).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return estimator, loss.item()


if __name__ == "__main__":
    device = process_device("cuda:0" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    theta = torch.rand(500, 2) * 2 - 1  # drawn i.i.d. from the box prior, so no shuffling is needed
    x = simulator(theta)
    estimator, loss = train_npe(theta, x, device)
    print("final loss", round(loss, 4), "default dtype", torch.get_default_dtype())
