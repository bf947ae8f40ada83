"""Two calculators: the float64 one calls torch.set_default_dtype in __init__ after the float32 model exists
source: https://github.com/ACEsuit/mace/issues/877
reported-error: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 25
root-cause: line 31
expect: DG001
"""
import numpy as np
import torch
import torch.nn as nn


class Atoms:
    def __init__(self, n=5, seed=0):
        rng = np.random.default_rng(seed)
        self.positions = rng.random((n, 3)).tolist()


class InteractionModel(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.radial = nn.Sequential(nn.Linear(3, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, positions):
        return self.radial(positions).sum()  # fails-here


class MACECalculator:
    def __init__(self, default_dtype="float64"):
        if default_dtype == "float64":
            torch.set_default_dtype(torch.float64)  # root-cause
        else:
            torch.set_default_dtype(torch.float32)
        self.model = InteractionModel()
        self.results = {}

    def calculate(self, atoms):
        positions = torch.tensor(atoms.positions, requires_grad=True)
        energy = self.model(positions)
        forces = -torch.autograd.grad(energy, positions)[0]
        self.results = {"energy": energy.item(), "forces": forces.detach().numpy()}
        return self.results


if __name__ == "__main__":
    atoms = Atoms()
    calc32 = MACECalculator(default_dtype="float32")
    calc64 = MACECalculator(default_dtype="float64")
    print("float64:", calc64.calculate(atoms)["energy"])
    print("float32:", calc32.calculate(atoms)["energy"])
