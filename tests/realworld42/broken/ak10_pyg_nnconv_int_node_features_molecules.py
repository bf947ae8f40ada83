"""Edge-conditioned convolution (PyTorch Geometric's NNConv, re-typed as in PyG 1.2: an edge network maps each edge's attributes to an in x out weight matrix, messages x_j @ W_e are aggregated with scatter-add, plus a root weight) over the user's molecule-like graphs built from an atom table and a bond table with pandas (atom types as integer node features, bond lengths as edge attributes), pytorch_geometric issue #273: the user keeps the atom-type codes as integers with data.x = data.x.int() and calls conv1(data.x, data.edge_index, data.edge_attr.float()), so NNConv's message multiplies int32 node features by the float weights produced by the edge network
source: https://github.com/pyg-team/pytorch_geometric/issues/273
reported-error: RuntimeError raised from NNConv.forward's self.propagate(edge_index, x=x, pseudo=pseudo) when data.x is an int tensor ("torch.matmul does not support different types of data as inputs (x_j = integer, weight = float)")
outcome: RuntimeError: expected scalar type Int but found Float at line 41
root-cause: line 98
expect: DG005
"""
import numpy as np
import pandas as pd

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- torch_geometric/nn/conv/nn_conv.py (PyG 1.2, reduced: MessagePassing with aggr='add' written out)
class NNConv(nn.Module):
    def __init__(self, in_channels, out_channels, nn_module, aggr='add', root_weight=True, bias=True):
        super(NNConv, self).__init__()
        self.in_channels, self.out_channels = in_channels, out_channels
        self.nn = nn_module
        self.aggr = aggr
        self.root = nn.Parameter(torch.Tensor(in_channels, out_channels)) if root_weight else None
        self.bias = nn.Parameter(torch.Tensor(out_channels)) if bias else None
        nn.init.xavier_uniform_(self.root)
        nn.init.zeros_(self.bias)

    def forward(self, x, edge_index, edge_attr):
        x = x.unsqueeze(-1) if x.dim() == 1 else x
        pseudo = edge_attr.unsqueeze(-1) if edge_attr.dim() == 1 else edge_attr
        return self.propagate(edge_index, x=x, pseudo=pseudo)

    def propagate(self, edge_index, x, pseudo):
        row, col = edge_index
        msg = self.message(x[col], pseudo)
        out = torch.zeros(x.size(0), self.out_channels, dtype=msg.dtype).index_add_(0, row, msg)
        return self.update(out, x)

    def message(self, x_j, pseudo):
        weight = self.nn(pseudo).view(-1, self.in_channels, self.out_channels)
        return torch.matmul(x_j.unsqueeze(1), weight).squeeze(1)  # fails-here

    def update(self, aggr_out, x):
        if self.root is not None:
            aggr_out = aggr_out + torch.mm(x, self.root)
        if self.bias is not None:
            aggr_out = aggr_out + self.bias
        return aggr_out


class Data:
    def __init__(self, x=None, edge_index=None, edge_attr=None, y=None):
        self.x, self.edge_index, self.edge_attr, self.y = x, edge_index, edge_attr, y


# ---- the user's molecules: an atom table and a bond table (pandas), the target is a per-molecule property
def make_tables(n_mols=40, seed=0):
    rng = np.random.default_rng(seed)
    atoms, bonds, props = [], [], []
    for m in range(n_mols):
        n = int(rng.integers(4, 9))
        types = rng.integers(0, 4, n)                       # C, N, O, H as 0..3
        for i, t in enumerate(types):
            atoms.append({"mol": m, "idx": i, "atom_type": int(t)})
        for i in range(1, n):
            j = int(rng.integers(0, i))
            bonds.append({"mol": m, "a": i, "b": j, "length": float(rng.normal(1.4, 0.1))})
        props.append({"mol": m, "energy": float(types.sum() * 0.3 + rng.normal(0, 0.1))})
    return pd.DataFrame(atoms), pd.DataFrame(bonds), pd.DataFrame(props)


def to_data(m, atoms, bonds, props):
    a = atoms[atoms.mol == m].sort_values("idx")
    b = bonds[bonds.mol == m]
    src = np.concatenate([b.a.values, b.b.values])
    dst = np.concatenate([b.b.values, b.a.values])
    data = Data(x=torch.tensor(a.atom_type.values),
                edge_index=torch.tensor(np.stack([src, dst]), dtype=torch.long),
                edge_attr=torch.tensor(np.concatenate([b.length.values, b.length.values])),
                y=torch.tensor([props[props.mol == m].energy.values[0]], dtype=torch.float))
    return data


atoms, bonds, props = make_tables()
dataset = [to_data(m, atoms, bonds, props) for m in range(len(props))]

edge_net1 = nn.Sequential(nn.Linear(1, 16), nn.ReLU(), nn.Linear(16, 1 * 32))
conv1 = NNConv(1, 32, edge_net1, aggr='add')
edge_net2 = nn.Sequential(nn.Linear(1, 16), nn.ReLU(), nn.Linear(16, 32 * 16))
conv2 = NNConv(32, 16, edge_net2, aggr='add')
head = nn.Linear(16, 1)
params = list(conv1.parameters()) + list(conv2.parameters()) + list(head.parameters())
optimizer = torch.optim.Adam(params, lr=0.005)

for epoch in range(3):
    total = 0.0
    for data in dataset:
        data.x = data.x.int()  # root-cause
        optimizer.zero_grad()
        h = F.relu(conv1(data.x, data.edge_index, data.edge_attr.float()))
        h = F.relu(conv2(h, data.edge_index, data.edge_attr.float()))
        pred = head(h.sum(dim=0))
        loss = F.mse_loss(pred, data.y)
        loss.backward()
        optimizer.step()
        total += loss.item()
    print("epoch {} loss {:.4f}".format(epoch, total / len(dataset)))
