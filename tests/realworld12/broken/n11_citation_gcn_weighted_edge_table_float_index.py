"""Hand-written GCN on a citation-style graph whose weighted edge list (src, dst, weight) comes from an in-memory DataFrame; load_graph() converts the whole frame with to_numpy() (float64) and slices edge_index out of it without .long(), so the degree normalisation's scatter_add_ gets a float index
source: https://github.com/pyg-team/pytorch_geometric/pull/8740
reported-error: RuntimeError: scatter(): Expected dtype int64 for index (from gcn_norm's scatter of the edge weights; maintainer: fix the edge_index that is not int64 at its source)
outcome: RuntimeError: scatter(): Expected dtype int32/int64 for index at line 28
root-cause: line 19
expect: DG006
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


def load_graph(n_nodes=60, n_edges=240, seed=0):
    rng = np.random.default_rng(seed)
    edges = pd.DataFrame({"src": rng.integers(0, n_nodes, n_edges), "dst": rng.integers(0, n_nodes, n_edges),
                          "weight": rng.uniform(0.5, 1.0, n_edges)}).drop_duplicates(["src", "dst"])
    table = torch.from_numpy(edges.to_numpy())
    edge_index = table[:, :2].t().contiguous()  # root-cause
    edge_weight = table[:, 2].float()
    x = torch.from_numpy(rng.standard_normal((n_nodes, 16)).astype(np.float32))
    y = torch.from_numpy(rng.integers(0, 3, n_nodes))
    return x, edge_index, edge_weight, y


def gcn_norm(edge_index, weight, num_nodes):
    row, col = edge_index
    deg = torch.zeros(num_nodes).scatter_add_(0, col, weight)  # fails-here
    inv_sqrt = deg.clamp(min=1).pow(-0.5)
    return inv_sqrt.index_select(0, row) * weight * inv_sqrt.index_select(0, col)


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index, edge_weight):
        h = self.lin(x)
        norm = gcn_norm(edge_index, edge_weight, x.size(0))
        msg = h.index_select(0, edge_index[0]) * norm.unsqueeze(-1)
        return torch.zeros_like(h).index_add_(0, edge_index[1], msg)


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = GCNLayer(16, 32), GCNLayer(32, 3)

    def forward(self, x, edge_index, edge_weight):
        return self.l2(torch.relu(self.l1(x, edge_index, edge_weight)), edge_index, edge_weight)


if __name__ == "__main__":
    x, edge_index, edge_weight, y = load_graph()
    model = GCN()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
    for epoch in range(5):
        loss = nn.functional.cross_entropy(model(x, edge_index, edge_weight), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"loss {loss.item():.4f}")
