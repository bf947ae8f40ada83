"""The NequIP-style float64 potential of bw05 (pytorch/pytorch #75269) with the launcher's default dtype handed to the spawned workers: mp.spawn passes torch.get_default_dtype() and each worker calls torch.set_default_dtype() with it before building anything, so the model is float64 like the structures it trains on and the forces come out float64; the default set in the launcher after nothing but the structures exist, the set_default_dtype inside the worker and the float64 torch.tensor(list) inputs are kept
source: https://github.com/pytorch/pytorch/issues/75269
reported-error: "torch.multiprocessing does not propagate global state like the default dtype to worker processes when using the forkserver start method ... 0: torch.float32 ... If you change it to fork, all of them print float64. This leads to dtype errors when the tensors are brought back to the parent process." (the spawn start method behaves like forkserver)
outcome: ok
root-cause: -
expect: none
"""
import math
import os
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn

WORLD_SIZE = 2
R_CUT, N_BASIS = 3.0, 8


class RadialBasis(nn.Module):
    def __init__(self, r_cut, n_basis):
        super().__init__()
        self.r_cut = r_cut
        self.register_buffer("freqs", torch.arange(1, n_basis + 1) * math.pi / r_cut)

    def forward(self, r):
        envelope = 0.5 * (torch.cos(math.pi * r / self.r_cut) + 1.0) * (r < self.r_cut)
        return torch.sin(self.freqs * r.unsqueeze(-1)) / r.unsqueeze(-1) * envelope.unsqueeze(-1)


class PairPotential(nn.Module):
    def __init__(self, r_cut=R_CUT, n_basis=N_BASIS, width=32):
        super().__init__()
        self.basis = RadialBasis(r_cut, n_basis)
        self.mlp = nn.Sequential(nn.Linear(n_basis, width), nn.SiLU(), nn.Linear(width, 1))

    def forward(self, pos):
        i, j = torch.triu_indices(pos.shape[0], pos.shape[0], offset=1)
        r = (pos[i] - pos[j]).norm(dim=-1)
        return self.mlp(self.basis(r)).sum()


def lennard_jones(pos):
    e = 0.0
    for a in range(len(pos)):
        for b in range(a + 1, len(pos)):
            d = math.dist(pos[a], pos[b])
            e += 4.0 * ((1.0 / d) ** 12 - (1.0 / d) ** 6)
    return e


def make_structures(n, n_atoms, seed):
    g = torch.Generator().manual_seed(seed)
    structures = []
    for _ in range(n):
        grid = [[float(x), float(y), float(z)] for x in range(2) for y in range(2) for z in range(2)][:n_atoms]
        jitter = (0.05 * torch.randn(n_atoms, 3, generator=g)).tolist()
        coords = [[1.25 * c + d for c, d in zip(row, jit)] for row, jit in zip(grid, jitter)]
        structures.append((torch.tensor(coords), torch.tensor(lennard_jones(coords))))
    return structures


def worker(rank, world_size, init_file, structures, default_dtype):
    torch.set_default_dtype(default_dtype)  # a spawned interpreter starts with float32
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method="file://" + init_file, rank=rank, world_size=world_size)
    torch.manual_seed(0)
    model = PairPotential()
    model = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    shard = structures[rank::world_size]
    for epoch in range(4):
        total = 0.0
        for pos, energy in shard:
            pred = model(pos)
            loss = (pred - energy) ** 2
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        if rank == 0:
            print(f"epoch {epoch}: energy MSE {total / len(shard):.4f}", flush=True)
    if rank == 0:
        pos = shard[0][0].clone().requires_grad_(True)
        forces = -torch.autograd.grad(model.module(pos), pos)[0]
        print(f"max |F| on structure 0: {forces.abs().max().item():.3f} ({forces.dtype})", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    torch.set_default_dtype(torch.float64)  # default_dtype: float64 in the run config
    structures = make_structures(32, n_atoms=8, seed=0)
    print(f"launcher: {len(structures)} structures, positions {structures[0][0].dtype}", flush=True)
    init_file = os.path.join(tempfile.mkdtemp(), "dist_init")
    mp.spawn(worker, args=(WORLD_SIZE, init_file, structures, torch.get_default_dtype()), nprocs=WORLD_SIZE)
