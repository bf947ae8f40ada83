"""The metatrain-style SOAP-BPNN train-on-CUDA / export-on-login-node run of ay05 (metatensor/metatrain #312) with the fix of PR #381: SoapBpnn.load_checkpoint reads the checkpoint with map_location="cpu", so the cuda:0-tagged storages are mapped to the CPU and the model exports and evaluates; weights_only=False stays (the checkpoint is the run's own and holds the DatasetInfo dataclass and the hypers), as does the model.to(dtype) taken from the state dict
source: https://github.com/metatensor/metatrain/issues/312
reported-error: (none filed; the fixed situation of ay05)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn as nn
from torch import serialization

torch.manual_seed(0)
RUN_DIR = tempfile.mkdtemp()
N_RADIAL, CUTOFF = 12, 5.0


@dataclass
class DatasetInfo:
    length_unit: str
    atomic_types: list
    targets: dict = field(default_factory=dict)


def radial_descriptors(positions, types, atomic_types):
    """Per-atom Gaussian radial densities, one channel block per neighbour type (a cheap SOAP stand-in)."""
    centers = np.linspace(0.5, CUTOFF, N_RADIAL)
    d = np.linalg.norm(positions[:, None] - positions[None], axis=-1)
    fc = np.where(d < CUTOFF, 0.5 * (np.cos(np.pi * d / CUTOFF) + 1), 0.0)
    np.fill_diagonal(fc, 0.0)
    g = np.exp(-((d[..., None] - centers) ** 2) / 0.18) * fc[..., None]
    return np.concatenate([g[:, types == t].sum(1) for t in atomic_types], axis=1).astype(np.float32)


class CompositionModel(nn.Module):
    def __init__(self, atomic_types):
        super().__init__()
        self.register_buffer("weights", torch.zeros(len(atomic_types)))

    def fit(self, type_counts, energies):
        sol = torch.linalg.lstsq(type_counts, energies.unsqueeze(1)).solution
        self.weights.copy_(sol.squeeze(1))


class SoapBpnn(nn.Module):
    def __init__(self, model_hypers, dataset_info):
        super().__init__()
        self.hypers, self.dataset_info = model_hypers, dataset_info
        self.atomic_types = dataset_info.atomic_types
        n_in = N_RADIAL * len(self.atomic_types)
        width = model_hypers["bpnn"]["num_neurons_per_layer"]
        self.layernorm = nn.LayerNorm(n_in)
        self.mlps = nn.ModuleList([nn.Sequential(nn.Linear(n_in, width), nn.SiLU(), nn.Linear(width, width),
                                                 nn.SiLU(), nn.Linear(width, 1)) for _ in self.atomic_types])
        self.additive_models = nn.ModuleList([CompositionModel(self.atomic_types)])

    def forward(self, features, types, system_index, n_systems):
        x = self.layernorm(features)
        atomic_energy = torch.zeros(len(types), dtype=x.dtype, device=x.device)
        for i, mlp in enumerate(self.mlps):
            mask = types == i
            atomic_energy[mask] = mlp(x[mask]).squeeze(-1)
        energy = torch.zeros(n_systems, dtype=x.dtype, device=x.device).index_add_(0, system_index, atomic_energy)
        if not self.training:
            counts = torch.zeros(n_systems, len(self.atomic_types), dtype=x.dtype, device=x.device)
            counts.index_put_((system_index, types), torch.ones_like(atomic_energy), accumulate=True)
            energy = energy + counts @ self.additive_models[0].weights
        return energy

    @classmethod
    def load_checkpoint(cls, path):
        checkpoint = torch.load(path, weights_only=False, map_location="cpu")
        model_hypers = checkpoint["model_hypers"]
        model_state_dict = checkpoint["model_state_dict"]
        model = cls(**model_hypers)
        dtype = next(iter(model_state_dict.values())).dtype
        model.to(dtype).load_state_dict(model_state_dict)
        return model

    def export(self):
        self.eval()
        dtype = next(self.parameters()).dtype
        if dtype not in (torch.float32, torch.float64):
            raise ValueError(f"unsupported dtype {dtype} for SoapBpnn")
        return self.to(dtype)


class Trainer:
    def __init__(self, hypers):
        self.hypers, self.epoch = hypers, 0

    def train(self, model, batch, energies, counts):
        model.additive_models[0].fit(counts, energies)
        residual = energies - counts @ model.additive_models[0].weights
        opt = torch.optim.Adam(model.parameters(), lr=self.hypers["learning_rate"])
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=50, gamma=0.5)
        for self.epoch in range(self.hypers["num_epochs"]):
            loss = ((model(*batch) - residual) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        print(f"epoch {self.epoch}: energy RMSE {loss.sqrt().item():.4f} eV")
        self.optimizer_state_dict, self.scheduler_state_dict = opt.state_dict(), sched.state_dict()

    def save_checkpoint(self, model, path):
        checkpoint = {
            "model_hypers": {"model_hypers": model.hypers, "dataset_info": model.dataset_info},
            "model_state_dict": model.state_dict(),
            "train_hypers": self.hypers,
            "epoch": self.epoch,
            "optimizer_state_dict": self.optimizer_state_dict,
            "scheduler_state_dict": self.scheduler_state_dict,
        }
        torch.save(checkpoint, path)


# --- `mtt train options.yaml` on the GPU node ---
rng = np.random.default_rng(0)
atomic_types = [1, 6, 8]
feats, types, sys_idx, energies, counts = [], [], [], [], []
for s in range(40):
    n_at = rng.integers(6, 12)
    z = rng.integers(0, 3, n_at)
    pos = rng.uniform(0, 4.0, (n_at, 3))
    d = np.linalg.norm(pos[:, None] - pos[None], axis=-1) + np.eye(n_at)
    e = float(np.sum(np.triu(np.exp(-d) - 0.5 * np.exp(-0.5 * d), 1))) + float(np.bincount(z, minlength=3) @ [-13.6, -1029.0, -2041.0])
    feats.append(radial_descriptors(pos, z, range(3)))
    types.append(z)
    sys_idx.append(np.full(n_at, s))
    energies.append(e)
    counts.append(np.bincount(z, minlength=3))
batch = (torch.from_numpy(np.concatenate(feats)), torch.from_numpy(np.concatenate(types)),
         torch.from_numpy(np.concatenate(sys_idx)), 40)
energies = torch.tensor(energies, dtype=torch.float32)
counts = torch.tensor(np.stack(counts), dtype=torch.float32)

hypers = {"bpnn": {"num_neurons_per_layer": 32}}
info = DatasetInfo(length_unit="angstrom", atomic_types=atomic_types, targets={"energy": {"unit": "eV"}})
model = SoapBpnn(hypers, info)
trainer = Trainer({"learning_rate": 3e-3, "num_epochs": 150})
trainer.train(model, batch, energies, counts)
ckpt_path = os.path.join(RUN_DIR, "model.ckpt")
original_tag = serialization.location_tag
serialization.location_tag = lambda storage: "cuda:0"
try:
    trainer.save_checkpoint(model, ckpt_path)
finally:
    serialization.location_tag = original_tag

# --- `mtt export model.ckpt` on the CPU-only login node ---
exported = SoapBpnn.load_checkpoint(ckpt_path).export()
with torch.no_grad():
    pred = exported(*batch)
print(f"exported model: energy MAE {(pred - energies).abs().mean().item():.4f} eV on the training systems")
