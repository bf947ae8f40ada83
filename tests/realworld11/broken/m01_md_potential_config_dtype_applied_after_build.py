"""Molecular-potential trainer whose config dict carries "dtype": "float64"; build_model() creates the float32 network first and configure_precision() applies torch.set_default_dtype afterwards, so the hand-parsed coordinates become float64 while the layers stay float32
source: https://github.com/torchmd/torchmd-net/pull/182
reported-error: mat1 and mat2 must have the same dtype (model built in float32, data created after the default dtype was switched to float64)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 35
root-cause: line 43
expect: DG001
"""
import math

import torch
import torch.nn as nn

CONFIG = {"hidden": 32, "layers": 2, "dtype": "float64", "lr": 1e-3, "epochs": 3}
DTYPES = {"float32": torch.float32, "float64": torch.float64}

XYZ = """\
3
water
O 0.000 0.000 0.117
H 0.000 0.757 -0.467
H 0.000 -0.757 -0.467
"""


class EnergyHead(nn.Module):
    def __init__(self, hidden, layers):
        super().__init__()
        blocks = [nn.Linear(3, hidden), nn.SiLU()]
        for _ in range(layers - 1):
            blocks += [nn.Linear(hidden, hidden), nn.SiLU()]
        self.body = nn.Sequential(*blocks)
        self.out = nn.Linear(hidden, 1)

    def forward(self, pos):
        return self.out(self.body(pos)).sum()  # fails-here


def build_model(cfg):
    return EnergyHead(cfg["hidden"], cfg["layers"])


def configure_precision(cfg):
    torch.set_default_dtype(DTYPES[cfg["dtype"]])  # root-cause


def parse_xyz(text):
    lines = text.strip().splitlines()[2:]
    return [[float(v) for v in line.split()[1:]] for line in lines]


def jitter(coords, k):
    return torch.tensor([[c + 0.01 * math.sin(k + i + j) for j, c in enumerate(row)] for i, row in enumerate(coords)])


def main(cfg):
    model = build_model(cfg)
    configure_precision(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    coords = parse_xyz(XYZ)
    for epoch in range(cfg["epochs"]):
        pos = jitter(coords, epoch)
        energy = model(pos)
        loss = (energy - 1.0) ** 2
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main(CONFIG)
