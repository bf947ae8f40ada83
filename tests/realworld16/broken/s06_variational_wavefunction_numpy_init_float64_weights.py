"""Neural-network wavefunction whose custom init_weights() replaces each Linear weight with torch.from_numpy(rng.normal(...) * scale) (float64, following a float64-by-default initializer convention) while the biases and the sampled spin configurations stay float32
source: https://github.com/netket/netket/pull/692
reported-error: none quoted (the PR makes float64 the default dtype of the initializers)
outcome: RuntimeError: self and mat2 must have the same dtype, but got Float and Double at line 28
root-cause: line 17
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(1)


def init_weights(module, scale=0.01):
    if isinstance(module, nn.Linear):
        module.weight.data = torch.from_numpy(rng.normal(size=tuple(module.weight.shape)) * scale)  # root-cause
        nn.init.zeros_(module.bias)


class RBMLike(nn.Module):
    def __init__(self, n_sites, alpha=2):
        super().__init__()
        self.hidden = nn.Linear(n_sites, alpha * n_sites)
        self.apply(init_weights)

    def log_psi(self, sigma):
        theta = self.hidden(sigma)  # fails-here
        return torch.log(torch.cosh(theta)).sum(-1)


def sample_configs(n_samples, n_sites):
    return torch.randint(0, 2, (n_samples, n_sites)).float() * 2 - 1


def energy_proxy(model, sigma):
    return (model.log_psi(sigma) ** 2).mean()


model = RBMLike(n_sites=10)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for it in range(3):
    loss = energy_proxy(model, sample_configs(32, 10))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("iter", it, "loss", loss.item())
