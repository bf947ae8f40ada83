"""Numerical integration helper in the style of torchquad's set_up_backend("torch", data_type="float64"): precision is set through the legacy torch.set_default_tensor_type
source: https://github.com/esa/torchquad/issues/196
reported-error: UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 21
expect: DG002
"""
import math
import warnings

import torch


def set_precision(data_type="float32", backend="torch"):
    if backend != "torch":
        raise NotImplementedError(backend)
    if torch.cuda.is_available():
        tensor_type = {"float32": "torch.cuda.FloatTensor", "float64": "torch.cuda.DoubleTensor"}[data_type]
    else:
        tensor_type = {"float32": "torch.FloatTensor", "float64": "torch.DoubleTensor"}[data_type]
    torch.set_default_tensor_type(tensor_type)  # root-cause


def set_up_backend(backend, data_type=None):
    if data_type is not None:
        set_precision(data_type, backend=backend)


class Simpson:
    def integrate(self, fn, dim, N, integration_domain):
        n_per_dim = int(round(N ** (1.0 / dim)))
        if n_per_dim % 2 == 0:
            n_per_dim += 1
        grids = [torch.linspace(a, b, n_per_dim) for a, b in integration_domain]
        mesh = torch.stack(torch.meshgrid(*grids, indexing="ij"), dim=-1).reshape(-1, dim)
        w1 = torch.ones(n_per_dim)
        w1[1:-1:2], w1[2:-1:2] = 4.0, 2.0
        weights = w1
        for _ in range(dim - 1):
            weights = torch.outer(weights, w1).reshape(-1)
        h = torch.tensor([(b - a) / (n_per_dim - 1) for a, b in integration_domain])
        return (weights * fn(mesh)).sum() * torch.prod(h) / 3.0 ** dim


warnings.simplefilter("always")
set_up_backend("torch", data_type="float64")


def some_function(x):
    return torch.sin(x[:, 0]) + torch.exp(x[:, 1])


result = Simpson().integrate(some_function, dim=2, N=10201, integration_domain=[[0, 1], [-1, 1]])
exact = 2 * (1 - math.cos(1)) + (math.e - 1 / math.e)
print(f"result {result.item():.10f} (dtype {result.dtype}), abs error {abs(result.item() - exact):.2e}")
