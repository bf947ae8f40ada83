"""Batched FIRE structural relaxation of several argon crystals in one state, written the way torch-sim's optimizers.py fire_step was (TorchSim/torch-sim #27, raised there from unit_cell_fire): the optimizer takes dtype = model.dtype (float32, the potential's precision) for its per-system buffers, while the state built from the ASE-style positions is float64; F.V per atom is float64, and scatter_add_ into the float32 per-system power accumulator fails at the first step
source: https://github.com/TorchSim/torch-sim/pull/27
reported-error: "scatter(): Expected self.dtype to be equal to src.dtype in torchsim/optimizers.py, line 768, in fire_step: atomic_power_per_batch.scatter_add_"; the PR makes the accumulators torch.zeros(n_batches, device=device, dtype=atomic_power.dtype) instead of dtype=dtype
outcome: RuntimeError: scatter(): Expected self.dtype to be equal to src.dtype at line 104
root-cause: line 103
expect: DG004
"""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
dtype = torch.float32  # precision of the interatomic potential


# ---- structures: FCC argon, 2x2x2 conventional cells, random displacements (what ase.build.bulk + rattle gives)
def fcc_argon(a, reps, rng):
    basis = np.array([[0, 0, 0], [0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]])
    cells = np.array([[i, j, k] for i in range(reps) for j in range(reps) for k in range(reps)])
    positions = ((cells[:, None, :] + basis[None, :, :]).reshape(-1, 3)) * a
    positions += 0.1 * rng.standard_normal(positions.shape)
    return positions, np.eye(3) * a * reps


@dataclass
class FireState:
    positions: torch.Tensor
    masses: torch.Tensor
    cell: torch.Tensor
    batch: torch.Tensor
    velocity: torch.Tensor = None
    forces: torch.Tensor = None
    energy: torch.Tensor = None
    dt: torch.Tensor = None
    alpha: torch.Tensor = None
    n_pos: torch.Tensor = None


def atoms_to_state(structures, device):
    positions = torch.cat([torch.tensor(p, device=device) for p, _ in structures])  # root-cause-alt
    cell = torch.stack([torch.tensor(c, device=device) for _, c in structures])
    batch = torch.cat([torch.full((len(p),), i, device=device, dtype=torch.long) for i, (p, _) in enumerate(structures)])
    masses = torch.full((len(positions),), 39.948, device=device, dtype=positions.dtype)
    return FireState(positions=positions, masses=masses, cell=cell, batch=batch)


# ---- a Lennard-Jones potential with minimum-image periodic boundaries, energies per system, forces by autograd
class LennardJonesModel(nn.Module):
    def __init__(self, sigma=3.405, epsilon=0.0104, cutoff=2.5 * 3.405, device=None, dtype=torch.float32):
        super().__init__()
        self.device, self.dtype = device, dtype
        self.register_buffer("sigma", torch.tensor(sigma, device=device, dtype=dtype))
        self.register_buffer("epsilon", torch.tensor(epsilon, device=device, dtype=dtype))
        self.cutoff = cutoff

    def forward(self, positions, cell, batch):
        positions = positions.detach().requires_grad_(True)
        n_systems = cell.shape[0]
        energy = []
        for s in range(n_systems):
            pos = positions[batch == s]
            box = torch.diagonal(cell[s])
            dr = pos[:, None, :] - pos[None, :, :]
            dr = dr - box * torch.round(dr / box)
            r2 = (dr ** 2).sum(-1) + torch.eye(len(pos), device=pos.device, dtype=pos.dtype)
            sr6 = (self.sigma ** 2 / r2) ** 3
            pair = 4 * self.epsilon * (sr6 ** 2 - sr6)
            mask = (r2 < self.cutoff ** 2) & ~torch.eye(len(pos), dtype=torch.bool, device=pos.device)
            energy.append(0.5 * (pair * mask).sum())
        energy = torch.stack(energy)
        forces = -torch.autograd.grad(energy.sum(), positions)[0]
        return {"energy": energy.detach(), "forces": forces}


# ---- batched FIRE (torchsim.optimizers, the atomic part of fire_step)
def fire(model, dt_max=1.0, dt_start=0.1, n_min=5, f_inc=1.1, f_dec=0.5, alpha_start=0.1, f_alpha=0.99):
    device = model.device
    dtype = model.dtype

    def fire_init(state):
        n_batches = state.cell.shape[0]
        out = model(state.positions, state.cell, state.batch)
        state.forces, state.energy = out["forces"], out["energy"]
        state.velocity = torch.zeros_like(state.positions)
        state.dt = torch.full((n_batches,), dt_start, device=device, dtype=dtype)
        state.alpha = torch.full((n_batches,), alpha_start, device=device, dtype=dtype)
        state.n_pos = torch.zeros((n_batches,), device=device, dtype=torch.int32)
        return state

    def fire_step(state):
        n_batches = state.cell.shape[0]
        atom_wise_dt = state.dt[state.batch].unsqueeze(-1)
        state.velocity += 0.5 * atom_wise_dt * state.forces / state.masses.unsqueeze(-1)
        state.positions = state.positions + atom_wise_dt * state.velocity
        out = model(state.positions, state.cell, state.batch)
        state.forces, state.energy = out["forces"], out["energy"]
        state.velocity += 0.5 * atom_wise_dt * state.forces / state.masses.unsqueeze(-1)

        # power F.V per system decides whether to accelerate or to stop
        atomic_power = (state.forces * state.velocity).sum(dim=1)  # [n_atoms]
        atomic_power_per_batch = torch.zeros(n_batches, device=device, dtype=dtype)  # root-cause
        atomic_power_per_batch.scatter_add_(dim=0, index=state.batch, src=atomic_power)  # fails-here
        pos_mask = atomic_power_per_batch > 0.0
        state.n_pos = torch.where(pos_mask, state.n_pos + 1, torch.zeros_like(state.n_pos))
        inc = pos_mask & (state.n_pos > n_min)
        state.dt = torch.where(inc, torch.clamp(state.dt * f_inc, max=dt_max), state.dt)
        state.alpha = torch.where(inc, state.alpha * f_alpha, state.alpha)
        state.dt = torch.where(~pos_mask, state.dt * f_dec, state.dt)
        state.alpha = torch.where(~pos_mask, torch.full_like(state.alpha, alpha_start), state.alpha)
        state.velocity = torch.where(~pos_mask[state.batch].unsqueeze(-1), torch.zeros_like(state.velocity), state.velocity)

        # mix the velocity towards the force direction
        v_norm = torch.norm(state.velocity, dim=1, keepdim=True)
        f_norm = torch.norm(state.forces, dim=1, keepdim=True)
        alpha = state.alpha[state.batch].unsqueeze(-1)
        state.velocity = (1.0 - alpha) * state.velocity + alpha * state.forces * v_norm / (f_norm + 1e-10)
        return state

    return fire_init, fire_step


rng = np.random.default_rng(0)
structures = [fcc_argon(5.26, 2, rng), fcc_argon(5.40, 2, rng), fcc_argon(5.60, 2, rng)]
model = LennardJonesModel(device=device, dtype=dtype)
state = atoms_to_state(structures, device)
fire_init, fire_update = fire(model)
state = fire_init(state)
initial = state.energy.clone()
for step in range(60):
    if step % 20 == 0:
        print(f"step {step}: energies {[round(e.item(), 4) for e in state.energy]}")
    state = fire_update(state)
print("initial energies", [round(e.item(), 4) for e in initial])
print("final energies", [round(e.item(), 4) for e in state.energy])
print("max force", state.forces.abs().max().item())
