"""Interatomic-potential style energy model: the Calculator wrapper receives an already-built float32 EnergyNet and calls torch.set_default_dtype(torch.float64) in its __init__ (default_dtype="float64"); positions built later with torch.tensor(...) are float64 and the pairwise-distance features hit the float32 Linear
source: https://github.com/keras-team/keras/pull/7989
reported-error: the default float type is captured at layer construction time, so changing it afterwards leaves existing layers in the old dtype
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 25
root-cause: line 30
expect: DG001
"""
import math

import torch
import torch.nn as nn

DTYPES = {"float32": torch.float32, "float64": torch.float64}


class EnergyNet(nn.Module):
    def __init__(self, n_rbf=8, cutoff=5.0):
        super().__init__()
        self.register_buffer("centers", torch.linspace(0.0, cutoff, n_rbf))
        self.mlp = nn.Sequential(nn.Linear(n_rbf, 32), nn.SiLU(), nn.Linear(32, 1))

    def forward(self, pos):
        d = torch.cdist(pos, pos)
        rbf = torch.exp(-(d.unsqueeze(-1) - self.centers) ** 2)
        return self.mlp(rbf).sum()  # fails-here


class Calculator:
    def __init__(self, model, default_dtype="float64"):
        torch.set_default_dtype(DTYPES[default_dtype])  # root-cause
        self.model = model

    def get_energy_and_forces(self, positions):
        pos = torch.tensor(positions, requires_grad=True)
        energy = self.model(pos)
        (grad,) = torch.autograd.grad(energy, pos)
        return energy.item(), (-grad).tolist()


model = EnergyNet()
calc = Calculator(model)
water = [[0.0, 0.0, 0.0], [0.96, 0.0, 0.0], [0.96 * math.cos(1.82), 0.96 * math.sin(1.82), 0.0]]
energy, forces = calc.get_energy_and_forces(water)
print("energy", energy)
