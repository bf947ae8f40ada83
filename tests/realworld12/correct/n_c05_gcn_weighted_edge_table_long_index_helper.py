"""Hand-written GCN whose weighted edge table is still converted in one float64 to_numpy() call, but as_edge_index() casts the two id columns with .long() and the weights with .float() before the degree normalisation's scatter_add_ and the index_select/index_add_ message passing
source: https://github.com/pyg-team/pytorch_geometric/pull/8740
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


def as_edge_index(table):
    return table[:, :2].t().contiguous().long(), table[:, 2].float()


def load_graph(n_nodes=60, n_edges=240, seed=0):
    rng = np.random.default_rng(seed)
    edges = pd.DataFrame({"src": rng.integers(0, n_nodes, n_edges), "dst": rng.integers(0, n_nodes, n_edges),
                          "weight": rng.uniform(0.5, 1.0, n_edges)}).drop_duplicates(["src", "dst"])
    edge_index, edge_weight = as_edge_index(torch.from_numpy(edges.to_numpy()))
    x = torch.from_numpy(rng.standard_normal((n_nodes, 16)).astype(np.float32))
    return x, edge_index, edge_weight, torch.from_numpy(rng.integers(0, 3, n_nodes))


def gcn_norm(edge_index, weight, num_nodes):
    row, col = edge_index
    deg = torch.zeros(num_nodes).scatter_add_(0, col, weight)
    inv_sqrt = deg.clamp(min=1e-6).pow(-0.5)
    return inv_sqrt[row] * weight * inv_sqrt[col]


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index, edge_weight):
        h = self.lin(x)
        msg = h.index_select(0, edge_index[0]) * gcn_norm(edge_index, edge_weight, x.size(0)).unsqueeze(-1)
        return torch.zeros_like(h).index_add_(0, edge_index[1], msg)


if __name__ == "__main__":
    x, edge_index, edge_weight, y = load_graph()
    l1, l2 = GCNLayer(16, 32), GCNLayer(32, 3)
    opt = torch.optim.Adam(list(l1.parameters()) + list(l2.parameters()), lr=1e-2)
    for epoch in range(5):
        logits = l2(torch.relu(l1(x, edge_index, edge_weight)), edge_index, edge_weight)
        loss = nn.functional.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"loss {loss.item():.4f}")
