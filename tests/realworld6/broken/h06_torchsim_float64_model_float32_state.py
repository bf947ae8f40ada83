"""Interatomic-potential wrapper (torch-sim style): the pretrained model is converted to float64, but the simulation state is built with the default float32 dtype
source: https://github.com/TorchSim/torch-sim/issues/92
reported-error: RuntimeError: both inputs should have same dtype (from torch.tensordot inside the model's forward)
outcome: RuntimeError: both inputs should have same dtype at line 38
root-cause: line 65
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


class SimState:
    def __init__(self, positions, cell, atomic_numbers):
        self.positions = positions
        self.cell = cell
        self.atomic_numbers = atomic_numbers


def initialize_state(atoms, device, dtype=torch.float32):
    positions, cell, numbers = atoms
    return SimState(
        torch.tensor(positions, device=device, dtype=dtype),
        torch.tensor(cell, device=device, dtype=dtype),
        torch.tensor(numbers, device=device, dtype=torch.long),
    )


class PairPotential(nn.Module):
    def __init__(self, n_species=10, n_rbf=8):
        super().__init__()
        self.embed = nn.Embedding(n_species, n_rbf)
        self.rbf_weights = nn.Parameter(torch.randn(n_rbf, n_rbf) * 0.1)
        self.centers = nn.Parameter(torch.linspace(0.5, 4.0, n_rbf), requires_grad=False)
        self.coord_proj = nn.Parameter(torch.randn(3, n_rbf) * 0.1)

    def forward(self, positions, numbers):
        local = torch.tensordot(positions, self.coord_proj, dims=1)  # fails-here
        d = torch.cdist(positions, positions)
        rbf = torch.exp(-(d.unsqueeze(-1) - self.centers) ** 2)
        feats = torch.tensordot(rbf, self.rbf_weights, dims=1)
        e_i = ((feats.sum(1) + torch.tanh(local)) * self.embed(numbers)).sum(-1)
        return e_i.sum()


class SevenNetModel(nn.Module):
    def __init__(self, model, modal, device, dtype=torch.float64):
        super().__init__()
        self.model = model
        self.modal = modal
        self.device = device
        self.dtype = dtype

    def forward(self, state):
        pos = state.positions.clone().requires_grad_(True)
        energy = self.model(pos, state.atomic_numbers)
        forces = -torch.autograd.grad(energy, pos)[0]
        return {"energy": energy.detach(), "forces": forces}


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(0)
    atoms = (rng.random((12, 3)) * 5.0, np.eye(3) * 5.0, rng.integers(1, 9, 12))
    state = initialize_state(atoms, device=device)  # root-cause
    pretrained_sevenn_model = PairPotential().to(device, dtype=torch.float64)  # root-cause-alt
    model = SevenNetModel(model=pretrained_sevenn_model, modal="omat24", device=device, dtype=torch.float64)
    out = model(state)
    print("energy", out["energy"].item(), "max force", out["forces"].abs().max().item())
