"""Interatomic-potential model with a radial-basis buffer hard-coded to float64 while the rest of the model (and the data) follow the float32 default
source: https://github.com/yuanyue-liu-group/CP-MACE/pull/5
reported-error: TypeError/RuntimeError during float32 training because float buffers were created with torch.float64 instead of torch.get_default_dtype()
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 31
root-cause: line 15
expect: DG004
"""
import torch
import torch.nn as nn


class BesselBasis(nn.Module):
    def __init__(self, r_max=5.0, num_basis=8):
        super().__init__()
        bessel_weights = torch.pi / r_max * torch.linspace(1.0, num_basis, num_basis, dtype=torch.float64)  # root-cause
        self.register_buffer("bessel_weights", bessel_weights)
        self.register_buffer("prefactor", torch.tensor(2.0 / r_max))

    def forward(self, r):
        numerator = torch.sin(self.bessel_weights * r)
        return self.prefactor * numerator / r


class RadialEmbedding(nn.Module):
    def __init__(self, num_basis=8, hidden=16):
        super().__init__()
        self.bessel = BesselBasis(num_basis=num_basis)
        self.mlp = nn.Sequential(nn.Linear(num_basis, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, lengths):
        return self.mlp(self.bessel(lengths))  # fails-here


class ToyMACE(nn.Module):
    def __init__(self):
        super().__init__()
        self.radial = RadialEmbedding()

    def forward(self, positions, edge_index):
        vec = positions[edge_index[1]] - positions[edge_index[0]]
        lengths = vec.norm(dim=-1, keepdim=True)
        edge_energy = self.radial(lengths)
        return edge_energy.sum()


def random_graph(n_atoms=6):
    pos = torch.rand(n_atoms, 3) * 3.0
    src, dst = torch.meshgrid(torch.arange(n_atoms), torch.arange(n_atoms), indexing="ij")
    mask = src != dst
    return pos, torch.stack([src[mask], dst[mask]])


if __name__ == "__main__":
    torch.set_default_dtype(torch.float32)
    model = ToyMACE()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(3):
        pos, edge_index = random_graph()
        target = torch.tensor(-1.5)
        loss = (model(pos, edge_index) - target) ** 2
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
