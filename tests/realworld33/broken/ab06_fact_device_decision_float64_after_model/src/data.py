import torch

from device_decision import device


def sample_functions(n, length=16, degree=3):
    xs = torch.linspace(-1, 1, length)
    coeffs = torch.randn(n, degree + 1)
    ys = sum(coeffs[:, k : k + 1] * xs ** k for k in range(degree + 1))
    return ys[:, :-1].to(device), ys[:, 1:].to(device)
