"""Pure-torch dense graph convolution: the adjacency built from a NumPy integer edge list with torch.zeros(n, n, dtype=torch.long) is later used in torch.matmul(adj, x) with float node features inside DenseGraphConv.forward
source: https://github.com/pyg-team/pytorch_geometric/issues/2330
reported-error: RuntimeError: expected scalar type Long but found Float (DenseGraphConv with adj.dtype == torch.long)
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: long int != float at line 29
root-cause: line 14
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn


def build_adjacency(edges, n_nodes):
    adj = torch.zeros(n_nodes, n_nodes, dtype=torch.long)  # root-cause
    src, dst = torch.from_numpy(edges[:, 0]), torch.from_numpy(edges[:, 1])
    adj[src, dst] = 1
    adj[dst, src] = 1
    adj += torch.eye(n_nodes, dtype=adj.dtype)
    return adj


class DenseGraphConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin_rel = nn.Linear(in_dim, out_dim)
        self.lin_root = nn.Linear(in_dim, out_dim, bias=False)

    def forward(self, x, adj):
        agg = torch.matmul(adj, x)  # fails-here
        return self.lin_rel(agg) + self.lin_root(x)


class GCN(nn.Module):
    def __init__(self, in_dim, hidden, n_classes):
        super().__init__()
        self.conv1 = DenseGraphConv(in_dim, hidden)
        self.conv2 = DenseGraphConv(hidden, n_classes)

    def forward(self, x, adj):
        return self.conv2(torch.relu(self.conv1(x, adj)), adj)


rng = np.random.default_rng(0)
n_nodes = 30
edges = rng.integers(0, n_nodes, size=(80, 2))
features = torch.randn(n_nodes, 5)
labels = torch.randint(0, 3, (n_nodes,))
adj = build_adjacency(edges, n_nodes)
model = GCN(5, 16, 3)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    loss = nn.functional.cross_entropy(model(features, adj), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("epoch", epoch, "loss", loss.item())
