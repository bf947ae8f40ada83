"""IPSuite-style workflow: a float32 energy model is trained first, then building the MACE-like calculator node calls torch.set_default_dtype(torch.float64), so the positions tensor the next prediction builds with torch.tensor is float64
source: https://github.com/zincware/IPSuite/pull/216
reported-error: dtype mismatch after a MACE calculator changed the global default dtype (the PR sets the default dtype in the MACE model nodes explicitly)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 19
root-cause: line 41
expect: DG001
"""
import numpy as np
import torch
import torch.nn as nn


class EnergyModel(nn.Module):
    def __init__(self, n_atoms=4, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3 * n_atoms, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, positions):
        return self.net(positions.flatten(1))  # fails-here


class TrainNode:
    def __init__(self):
        self.model = EnergyModel()

    def run(self, frames, energies):
        opt = torch.optim.Adam(self.model.parameters(), lr=1e-2)
        x = torch.tensor(frames, dtype=torch.float32)
        y = torch.tensor(energies, dtype=torch.float32)
        for _ in range(5):
            loss = ((self.model(x).squeeze(-1) - y) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        return loss.item()


class MACECalculatorNode:
    def __init__(self, device="cpu", default_dtype="float64"):
        self.device = device
        torch.set_default_dtype(getattr(torch, default_dtype))  # root-cause

    def get_calculator(self):
        return {"device": self.device, "dtype": torch.get_default_dtype()}


def predict(model, frame):
    positions = torch.tensor(frame.tolist()).unsqueeze(0)
    return model(positions).item()


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    frames = rng.normal(size=(32, 4, 3)).astype(np.float32)
    energies = frames.sum(axis=(1, 2))
    train = TrainNode()
    print("train loss", train.run(frames, energies))
    calc = MACECalculatorNode().get_calculator()
    print("calculator", calc)
    print("energy of frame 0:", predict(train.model, frames[0]))
