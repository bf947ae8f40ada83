"""Lévy-flight sampler trained next to torchquad integration: the vendored set_up_backend("torch", data_type="float32") makes CUDA the default device when a GPU exists, and the shuffling training DataLoader breaks afterwards
source: https://github.com/esa/torchquad/issues/157
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (raised from RandomSampler.__iter__ when iterating the torch dataloader after set_up_backend)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (torch.randperm in RandomSampler runs on the default device cuda with a CPU generator) at line 44; on CPU: ok
root-cause: line 26
expect: DG003
"""
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("torchquad")


def _set_precision(data_type, backend):
    if backend == "torch":
        torch.set_default_dtype({"float32": torch.float32, "float64": torch.float64}[data_type])


def set_up_backend(backend, data_type=None, torch_enable_cuda=True):
    """Configure the numerical backend like torchquad.set_up_backend."""
    if backend == "torch":
        if torch_enable_cuda and torch.cuda.is_available():
            torch.set_default_device("cuda")  # root-cause
            logger.info("torchquad: CUDA is the default device")
        if data_type is not None:
            _set_precision(data_type, backend)


def levy_density(x, alpha=1.5):
    return torch.exp(-x.abs() ** alpha)


def test_data_loader_conflict():
    set_up_backend("torch", data_type="float32")
    x = torch.linspace(-3, 3, 256).unsqueeze(-1)
    y = levy_density(x)
    train_loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Linear(1, 32), nn.SiLU(), nn.Linear(32, 1))
    optim = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        for xb, yb in train_loader:  # fails-here
            loss = nn.functional.mse_loss(model(xb), yb)
            optim.zero_grad()
            loss.backward()
            optim.step()
        print(f"epoch {epoch}: loss {loss.item():.5f}")


if __name__ == "__main__":
    test_data_loader_conflict()
