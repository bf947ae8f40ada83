"""Interatomic-potential fitting script in the MACE style whose argparse default is --default-dtype float64; main() builds the float32 network with get_model(cfg) and only then calls configure_precision(cfg), so the energies/forces batches built later with torch.tensor(list) are float64
source: https://github.com/Quantum-Accelerators/quacc/pull/1400
reported-error: none quoted (the PR makes float64 the default dtype for MACE; here the default dtype is switched only after the model exists)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 31
root-cause: line 40
expect: DG001
"""
import argparse
import random

import torch
import torch.nn as nn


def parse_args(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--default-dtype", default="float64", choices=["float32", "float64"])
    p.add_argument("--n-species", type=int, default=4)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--lr", type=float, default=5e-3)
    p.add_argument("--epochs", type=int, default=2)
    return p.parse_args(argv if argv is not None else [])


class AtomicEnergyNet(nn.Module):
    def __init__(self, n_features, hidden):
        super().__init__()
        self.readout = nn.Sequential(nn.Linear(n_features, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, descriptors):
        return self.readout(descriptors).sum(dim=1).squeeze(-1)  # fails-here


def get_model(cfg):
    return AtomicEnergyNet(cfg.n_species * 3, cfg.hidden)


def configure_precision(cfg):
    torch.manual_seed(0)
    torch.set_default_dtype(getattr(torch, cfg.default_dtype))  # root-cause


def make_structures(cfg, n=24, atoms=5):
    random.seed(0)
    structs = []
    for _ in range(n):
        desc = [[random.gauss(0, 1) for _ in range(cfg.n_species * 3)] for _ in range(atoms)]
        structs.append((desc, sum(sum(r) for r in desc) * 0.1))
    return structs


def main(cfg):
    model = get_model(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    configure_precision(cfg)
    data = make_structures(cfg)
    for epoch in range(cfg.epochs):
        total = 0.0
        for desc, energy in data:
            pred = model(torch.tensor([desc]))
            loss = (pred - torch.tensor([energy])).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} energy mse {total / len(data):.4f}")


if __name__ == "__main__":
    main(parse_args())
