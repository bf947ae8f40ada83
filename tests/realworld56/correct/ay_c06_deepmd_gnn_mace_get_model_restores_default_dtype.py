"""The water-cluster study of ay06 (deepmodeling/deepmd-gnn #140) with the change the issue asks for: MaceModel.get_model sets the default dtype only while it constructs the model and restores the previous one in a finally block, so MACE is built in float64, the float32 baseline built before it and the dataset tensors made afterwards stay float32, and both models train (MACE casts its coordinates to its own dtype); the scoped torch.set_default_dtype calls are kept
source: https://github.com/deepmodeling/deepmd-gnn/issues/140
reported-error: (none filed; the fixed situation of ay06)
outcome: ok
root-cause: -
expect: none
"""
import math

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
PeriodicTable = {"H": 1, "O": 8}


class BesselBasis(nn.Module):
    def __init__(self, r_max, num_basis=8):
        super().__init__()
        self.register_buffer("r_max", torch.tensor(r_max))
        self.register_buffer("freqs", torch.arange(1, num_basis + 1) * math.pi / r_max)

    def forward(self, r):
        envelope = 0.5 * (torch.cos(math.pi * r / self.r_max) + 1) * (r < self.r_max)
        return math.sqrt(2.0 / self.r_max.item()) * torch.sin(self.freqs * r.unsqueeze(-1)) / r.unsqueeze(-1) * envelope.unsqueeze(-1)


class MaceModel(nn.Module):
    """Invariant message passing stand-in for deepmd_gnn.mace.MaceModel (type embedding, radial messages, readout)."""

    def __init__(self, type_map, sel, r_max=5.0, num_radial_basis=8, hidden=32, num_interactions=2, **kwargs):
        super().__init__()
        self.type_map, self.sel, self.rcut = type_map, sel, r_max
        self.atomic_numbers = [PeriodicTable[t] for t in type_map]
        self.embed = nn.Embedding(len(type_map), hidden)
        self.radial = BesselBasis(r_max, num_radial_basis)
        self.filters = nn.ModuleList([nn.Linear(num_radial_basis, hidden) for _ in range(num_interactions)])
        self.updates = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(num_interactions)])
        self.readout = nn.Sequential(nn.Linear(hidden, 16), nn.SiLU(), nn.Linear(16, 1))
        self.register_buffer("atomic_energies", torch.zeros(len(type_map)))

    @property
    def dtype(self):
        return self.readout[0].weight.dtype

    def forward(self, coord, atype):
        coord = coord.to(self.dtype)
        r = torch.cdist(coord, coord) + torch.eye(coord.shape[0], dtype=self.dtype) * 1e3
        basis = self.radial(r)
        h = self.embed(atype)
        for filt, upd in zip(self.filters, self.updates):
            h = h + torch.nn.functional.silu(upd((filt(basis) * h.unsqueeze(0)).sum(1)))
        return self.readout(h).sum() + self.atomic_energies[atype].sum()

    @classmethod
    def get_model(cls, model_params):
        model_params = model_params.copy()
        model_params.pop("type", None)
        precision = model_params.pop("precision", "float32")
        previous = torch.get_default_dtype()
        try:
            if precision == "float32":
                torch.set_default_dtype(torch.float32)
            elif precision == "float64":
                torch.set_default_dtype(torch.float64)
            else:
                raise ValueError(f"precision {precision} not supported")
            return cls(**model_params)
        finally:
            # the process-wide default is the caller's: put it back once the model exists
            torch.set_default_dtype(previous)


class AtomicMLPBaseline(nn.Module):
    """Quick float32 baseline: sorted neighbour distances per atom -> per-atom energy."""

    def __init__(self, n_neigh=8):
        super().__init__()
        self.n_neigh = n_neigh
        self.net = nn.Sequential(nn.Linear(n_neigh + 2, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, coord, atype):
        d = torch.cdist(coord, coord)
        d = d + torch.eye(len(coord)) * 1e3
        feats = torch.cat([1.0 / d.sort(dim=1).values[:, : self.n_neigh], nn.functional.one_hot(atype, 2)], dim=1)
        return self.net(feats).sum()


def water_cluster(n_mol, rng):
    frames = []
    for _ in range(n_mol):
        o = rng.uniform(0, 6.0, 3)
        for v in ([0.757, 0.586, 0.0], [-0.757, 0.586, 0.0]):
            frames.append((o + np.array(v) + rng.normal(0, 0.03, 3)).tolist())
        frames.insert(len(frames) - 2, o.tolist())
    return frames


baseline = AtomicMLPBaseline()
mace = MaceModel.get_model({"type": "mace", "type_map": ["O", "H"], "sel": 40, "r_max": 5.0, "precision": "float64"})
print("mace parameters:", next(mace.parameters()).dtype, "| default dtype after get_model:", torch.get_default_dtype())

rng = np.random.default_rng(0)
data = []
for _ in range(24):
    pos = water_cluster(4, rng)
    coord = torch.tensor(pos)
    atype = torch.tensor([0, 1, 1] * 4)
    r = torch.cdist(coord, coord)[atype == 0][:, atype == 0]
    energy = torch.tensor(-76.4 * 4 - 0.2 * float((torch.exp(-(r[r > 0] - 2.9) ** 2)).sum()))
    data.append((coord, atype, energy))

for name, model in (("baseline", baseline), ("mace", mace)):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(30):
        loss = sum((model(c, t) - (e + 76.4 * 4)) ** 2 for c, t, e in data) / len(data)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{name}: energy RMSE {loss.sqrt().item():.4f} eV")
