"""Molecular property GNN with a hand-written torch_scatter-style readout: the collate function builds the node-to-graph batch vector with torch.ones(n) * i, which is float32, and the global sum pooling passes it as the index of scatter_add_
source: https://github.com/rusty1s/pytorch_scatter/issues/281
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Float for argument #3 'index' in call to _th_scatter_add_ (torch_scatter/scatter.py: out.scatter_add_(dim, index, src); the maintainer asked to confirm index.long())
outcome: RuntimeError: scatter(): Expected dtype int32/int64 for index at line 31
root-cause: line 59
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


# ---- torch_scatter/scatter.py (vendored)
def broadcast(src, other, dim):
    if dim < 0:
        dim = other.dim() + dim
    if src.dim() == 1:
        for _ in range(0, dim):
            src = src.unsqueeze(0)
    for _ in range(src.dim(), other.dim()):
        src = src.unsqueeze(-1)
    return src.expand(other.size())


def scatter_sum(src, index, dim=-1, dim_size=None):
    index = broadcast(index, src, dim)
    size = list(src.size())
    size[dim] = dim_size if dim_size is not None else int(index.max()) + 1
    out = torch.zeros(size, dtype=src.dtype, device=src.device)
    return out.scatter_add_(dim, index, src)  # fails-here


# ---- data.py
class MoleculeDataset(Dataset):
    def __init__(self, n_mols=32, n_atom_types=10, seed=0):
        rng = np.random.default_rng(seed)
        self.mols = []
        for _ in range(n_mols):
            n = int(rng.integers(4, 12))
            atoms = rng.integers(0, n_atom_types, n)
            src = rng.integers(0, n, 2 * n)
            dst = rng.integers(0, n, 2 * n)
            self.mols.append((atoms, np.stack([src, dst]), float(atoms.mean())))

    def __len__(self):
        return len(self.mols)

    def __getitem__(self, i):
        return self.mols[i]


def collate_graphs(samples):
    atoms, edges, batch, targets, offset = [], [], [], [], 0
    for i, (a, e, y) in enumerate(samples):
        n = len(a)
        atoms.append(torch.from_numpy(a))
        edges.append(torch.from_numpy(e) + offset)
        batch.append(torch.ones(n) * i)  # root-cause
        targets.append(y)
        offset += n
    return torch.cat(atoms), torch.cat(edges, 1), torch.cat(batch), torch.tensor(targets)


# ---- model.py
class GINLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, x, edge_index):
        agg = scatter_sum(x[edge_index[0]], edge_index[1], dim=0, dim_size=x.size(0))
        return self.mlp(x + agg)


class MolNet(nn.Module):
    def __init__(self, n_atom_types=10, dim=32):
        super().__init__()
        self.embed = nn.Embedding(n_atom_types, dim)
        self.layers = nn.ModuleList([GINLayer(dim) for _ in range(2)])
        self.head = nn.Linear(dim, 1)

    def forward(self, atoms, edge_index, batch, num_graphs):
        x = self.embed(atoms)
        for layer in self.layers:
            x = torch.relu(layer(x, edge_index))
        pooled = scatter_sum(x, batch, dim=0, dim_size=num_graphs)
        return self.head(pooled).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    loader = DataLoader(MoleculeDataset(), batch_size=8, shuffle=True, collate_fn=collate_graphs)
    model = MolNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for atoms, edge_index, batch, y in loader:
            pred = model(atoms, edge_index, batch, num_graphs=len(y))
            loss = nn.functional.mse_loss(pred, y.float())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print("epoch", epoch, "loss", loss.item())
