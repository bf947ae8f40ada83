"""MACE-style eval_configs run on a model trained with --default_dtype float32: the evaluation script's --default_dtype defaults to float64, so the configurations it reads are turned into float64 positions and one-hot node attributes, and the float32 atomic-energies buffer of the unpickled model meets them in a matmul
source: https://github.com/ACEsuit/mace/issues/30
reported-error: RuntimeError: expected scalar type Double but found Float (scripts/eval_configs.py line 78 `output = model(batch, training=False)` -> models.py `node_e0 = self.atomic_energies_fn(data.node_attrs)` -> blocks.py `return torch.matmul(x, self.atomic_energies)`; "I believe the training process works very well")
outcome: RuntimeError: addmv input tensors must have the same dtype, but got Float, Double, and Float at line 54
root-cause: line 118
expect: DG004
"""
import argparse
import os
import tempfile

import numpy as np
import torch

torch.manual_seed(0)
dtype_dict = {"float32": torch.float32, "float64": torch.float64}
RUN_DIR = tempfile.mkdtemp(prefix="mace_eval_")


def set_default_dtype(dtype: str) -> None:
    torch.set_default_dtype(dtype_dict[dtype])


def to_one_hot(indices, num_classes):
    shape = indices.shape[:-1] + (num_classes,)
    oh = torch.zeros(shape, device=indices.device).view(shape)
    oh.scatter_(dim=-1, index=indices, value=1)
    return oh.view(*shape)


class AtomicData:
    """Re-typed data.AtomicData.from_config: every float field is built in the default dtype."""

    def __init__(self, positions, node_attrs, energy):
        self.positions, self.node_attrs, self.energy = positions, node_attrs, energy

    @classmethod
    def from_config(cls, config, z_table, cutoff):
        indices = torch.tensor([z_table.index(int(z)) for z in config["numbers"]], dtype=torch.long).unsqueeze(-1)
        one_hot = to_one_hot(indices, num_classes=len(z_table))
        return cls(
            positions=torch.tensor(config["positions"], dtype=torch.get_default_dtype()),
            node_attrs=one_hot,
            energy=torch.tensor(config["energy"], dtype=torch.get_default_dtype()),
        )


class AtomicEnergiesBlock(torch.nn.Module):
    def __init__(self, atomic_energies):
        super().__init__()
        self.register_buffer("atomic_energies", torch.tensor(atomic_energies, dtype=torch.get_default_dtype()))

    def forward(self, x):
        return torch.matmul(x, self.atomic_energies)  # fails-here


class ScaleShiftMACE(torch.nn.Module):
    """Small invariant stand-in for mace.modules.MACE: E0 per element + a radial-descriptor readout."""

    def __init__(self, atomic_numbers, atomic_energies, r_max=5.0, num_bessel=8, hidden=32):
        super().__init__()
        self.atomic_numbers = atomic_numbers
        self.r_max = r_max
        self.atomic_energies_fn = AtomicEnergiesBlock(atomic_energies)
        self.node_embedding = torch.nn.Linear(len(atomic_numbers), hidden, bias=False)
        self.register_buffer("freqs", torch.arange(1, num_bessel + 1) * np.pi / r_max)
        self.radial = torch.nn.Linear(num_bessel, hidden)
        self.readout = torch.nn.Sequential(torch.nn.Linear(hidden, 16), torch.nn.SiLU(), torch.nn.Linear(16, 1))

    def forward(self, data, training=False):
        node_e0 = self.atomic_energies_fn(data.node_attrs)
        h = self.node_embedding(data.node_attrs)
        r = torch.cdist(data.positions, data.positions) + torch.eye(len(data.positions)) * 1e3
        basis = torch.sin(self.freqs * r.unsqueeze(-1)) / r.unsqueeze(-1) * (r < self.r_max).unsqueeze(-1)
        h = h + torch.nn.functional.silu(self.radial(basis)).sum(1)
        return {"energy": node_e0.sum() + self.readout(h).sum()}


def make_configs(n, rng):
    configs = []
    for _ in range(n):
        o = rng.uniform(0, 4.0, (3, 3))
        pos = np.concatenate([o, o + [0.96, 0, 0], o + [-0.24, 0.93, 0]])
        configs.append({"numbers": [8] * 3 + [1] * 6, "positions": pos.tolist(), "energy": float(-14.2 * 3 + rng.normal(0, 0.1))})
    return configs


# --- mace run_train --default_dtype float32 (the user's training run) ---
set_default_dtype("float32")
rng = np.random.default_rng(0)
z_table = [1, 8]
model = ScaleShiftMACE(z_table, np.array([-13.6, -2041.8]) / 100.0)
train = [AtomicData.from_config(c, z_table, 5.0) for c in make_configs(16, rng)]
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(20):
    for d in train:
        loss = (model(d, training=True)["energy"] - d.energy) ** 2
        opt.zero_grad()
        loss.backward()
        opt.step()
model_path = os.path.join(RUN_DIR, "water_run-123.model")
torch.save(model, model_path)
print("trained in", next(model.parameters()).dtype, "final loss", round(loss.item(), 4))


# --- scripts/eval_configs.py --configs test.xyz --model water_run-123.model --output out.xyz ---
def parse_args(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--device", type=str, choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--default_dtype", type=str, choices=["float32", "float64"], default="float64")  # root-cause-alt
    parser.add_argument("--batch_size", type=int, default=64)
    return parser.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    set_default_dtype(args.default_dtype)  # root-cause
    device = torch.device(args.device)
    model = torch.load(f=args.model, map_location=device, weights_only=False)
    configs = make_configs(4, np.random.default_rng(1))
    zt = [int(z) for z in model.atomic_numbers]
    dataset = [AtomicData.from_config(c, z_table=zt, cutoff=model.r_max) for c in configs]
    energies_list = []
    for batch in dataset:
        output = model(batch, training=False)
        energies_list.append(output["energy"].detach().cpu().numpy())
    energies = np.stack(energies_list)
    print("predicted energies:", np.round(energies, 3))


main(["--model", model_path])
