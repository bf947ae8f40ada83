"""MACE calculator calls torch.set_default_dtype(float64) after a float32 model (CHGNet-like) was built
source: https://github.com/ACEsuit/mace/issues/328
reported-error: RuntimeError: mat1 and mat2 must have the same dtype (unhelpful error when running another model after MACE)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 21
root-cause: line 26
expect: DG001
"""
import numpy as np
import torch
import torch.nn as nn


class CHGNetLike(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(3, 16)
        self.readout = nn.Linear(16, 1)

    def predict_energy(self, positions):
        pos = torch.tensor(positions, dtype=torch.get_default_dtype())
        return self.readout(torch.tanh(self.embed(pos))).sum()  # fails-here


class MACECalculatorLike:
    def __init__(self, default_dtype="float64"):
        torch.set_default_dtype(getattr(torch, default_dtype))  # root-cause
        self.model = nn.Sequential(nn.Linear(3, 8), nn.SiLU(), nn.Linear(8, 1))

    def get_potential_energy(self, positions):
        return self.model(torch.tensor(positions, dtype=torch.get_default_dtype())).sum()


orig_dtype = torch.get_default_dtype()
print(f"{orig_dtype=}")
positions = np.random.rand(8, 3) * 3.6
chgnet = CHGNetLike()
print("chgnet", chgnet.predict_energy(positions).item())

calc = MACECalculatorLike(default_dtype="float64")
print("mace", calc.get_potential_energy(positions).item())
new_dtype = torch.get_default_dtype()
print(f"{new_dtype=}")
print("chgnet again", chgnet.predict_energy(positions).item())
