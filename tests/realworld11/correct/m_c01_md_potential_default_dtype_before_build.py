"""Molecular-potential trainer in double precision on purpose: configure_precision() applies the config's "float64" with torch.set_default_dtype before build_model(), so the network and the hand-parsed coordinates are both float64
source: https://github.com/torchmd/torchmd-net/pull/182
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import math

import torch
import torch.nn as nn

CONFIG = {"hidden": 32, "dtype": "float64", "lr": 1e-3, "epochs": 3}
DTYPES = {"float32": torch.float32, "float64": torch.float64}
XYZ = "3\nwater\nO 0.000 0.000 0.117\nH 0.000 0.757 -0.467\nH 0.000 -0.757 -0.467\n"


def configure_precision(cfg):
    torch.set_default_dtype(DTYPES[cfg["dtype"]])


def build_model(cfg):
    return nn.Sequential(nn.Linear(3, cfg["hidden"]), nn.SiLU(), nn.Linear(cfg["hidden"], 1))


def parse_xyz(text):
    return [[float(v) for v in line.split()[1:]] for line in text.strip().splitlines()[2:]]


def main(cfg):
    configure_precision(cfg)
    model = build_model(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    coords = parse_xyz(XYZ)
    for epoch in range(cfg["epochs"]):
        pos = torch.tensor([[c + 0.01 * math.sin(epoch + i + j) for j, c in enumerate(r)] for i, r in enumerate(coords)])
        loss = (model(pos).sum() - 1.0) ** 2
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f} ({loss.dtype})")


if __name__ == "__main__":
    main(CONFIG)
