"""Machine-learned interatomic potential (KLIFF NeuralNetwork + symmetry-function descriptor layout): the model's save() puts the descriptor's normalisation mean and stdev, NumPy arrays fitted on the training configurations, next to the state_dict, and load() reads the file back with a bare torch.load, which defaults to weights_only=True since PyTorch 2.6
source: https://github.com/openkim/kliff/issues/210
reported-error: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy.core.multiarray._reconstruct was not an allowed global by default. (17 tests fail with unpickling errors)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 58
root-cause: line 53
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


# ---- kliff/descriptors/symmetry_function.py
class SymmetryFunction:
    def __init__(self, cut_value=5.0, num_g2=6):
        self.cut_value = cut_value
        self.etas = np.linspace(0.05, 2.0, num_g2)
        self.mean = None
        self.stdev = None

    def transform(self, positions):
        rij = np.linalg.norm(positions[:, None, :] - positions[None, :, :], axis=-1)
        fc = np.where(rij < self.cut_value, 0.5 * (np.cos(np.pi * rij / self.cut_value) + 1.0), 0.0)
        np.fill_diagonal(fc, 0.0)
        return np.stack([(np.exp(-eta * rij ** 2) * fc).sum(1) for eta in self.etas], axis=1)

    def fit_normalize(self, fingerprints):
        allz = np.concatenate(fingerprints, axis=0)
        self.mean = allz.mean(axis=0)
        self.stdev = allz.std(axis=0) + 1e-8

    def normalize(self, zeta):
        return (zeta - self.mean) / self.stdev


# ---- kliff/models/neural_network.py
class NeuralNetwork(nn.Module):
    def __init__(self, descriptor, hidden=16):
        super().__init__()
        self.descriptor = descriptor
        n = len(descriptor.etas)
        self.layers = nn.Sequential(nn.Linear(n, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, zeta):
        return self.layers(zeta).sum()

    def save(self, path):
        torch.save({
            "model_state_dict": self.state_dict(),
            "descriptor": {"mean": self.descriptor.mean, "stdev": self.descriptor.stdev},  # root-cause
            "cut_value": self.descriptor.cut_value,
        }, path)

    def load(self, path):
        ckpt = torch.load(path)  # fails-here
        self.load_state_dict(ckpt["model_state_dict"])
        self.descriptor.mean = ckpt["descriptor"]["mean"]
        self.descriptor.stdev = ckpt["descriptor"]["stdev"]
        return self


# ---- kliff/loss.py (energy-only training)
def fit(model, configs, energies, epochs=5, lr=1e-2):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    zetas = [torch.from_numpy(model.descriptor.normalize(model.descriptor.transform(c))).float() for c in configs]
    for epoch in range(epochs):
        loss = sum((model(z) - e) ** 2 for z, e in zip(zetas, energies)) / len(zetas)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"final loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    configs = [rng.uniform(0, 6, (8, 3)) for _ in range(6)]
    energies = [float(-3.0 * len(c) + rng.normal(0, 0.1)) for c in configs]
    desc = SymmetryFunction()
    desc.fit_normalize([desc.transform(c) for c in configs])
    model = NeuralNetwork(desc)
    fit(model, configs, energies)
    path = os.path.join(tempfile.mkdtemp(), "final_model.pkl")
    model.save(path)
    restored = NeuralNetwork(SymmetryFunction()).load(path)
    print("restored descriptor mean", restored.descriptor.mean[:3])
