"""Kipf-style GCN: the adjacency is built and symmetrically normalised with scipy.sparse (float64 data) and converted by sparse_to_torch() with torch.from_numpy(mx.data); torch.sparse.mm of the float64 sparse adjacency with the float32 node support fails in the layer
source: https://github.com/rusty1s/pytorch_sparse/issues/13
reported-error: type problems converting scipy sparse results with from_numpy (dtype of the scipy arrays carried into torch)
outcome: RuntimeError: expected scalar type Double but found Float at line 35
root-cause: line 23
expect: DG004
"""
import numpy as np
import scipy.sparse as sp
import torch
import torch.nn as nn


def normalize_adj(adj):
    adj = adj + sp.eye(adj.shape[0])
    deg = np.asarray(adj.sum(1)).flatten()
    d_inv_sqrt = sp.diags(np.power(deg, -0.5))
    return (d_inv_sqrt @ adj @ d_inv_sqrt).tocoo()


def sparse_to_torch(mx):
    indices = torch.from_numpy(np.vstack((mx.row, mx.col)).astype(np.int64))
    values = torch.from_numpy(mx.data)  # root-cause
    return torch.sparse_coo_tensor(indices, values, mx.shape)


class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_features, out_features))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, x, adj):
        support = x @ self.weight
        return torch.sparse.mm(adj, support)  # fails-here


class GCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass):
        super().__init__()
        self.gc1 = GraphConvolution(nfeat, nhid)
        self.gc2 = GraphConvolution(nhid, nclass)

    def forward(self, x, adj):
        return self.gc2(torch.relu(self.gc1(x, adj)), adj)


rng = np.random.default_rng(0)
n_nodes = 60
rows, cols = rng.integers(0, n_nodes, 200), rng.integers(0, n_nodes, 200)
raw = sp.coo_matrix((np.ones(200), (rows, cols)), shape=(n_nodes, n_nodes))
raw = ((raw + raw.T) > 0).astype(float)
adj = sparse_to_torch(normalize_adj(raw))
features = torch.from_numpy(rng.normal(size=(n_nodes, 16)).astype(np.float32))
labels = torch.from_numpy(rng.integers(0, 3, n_nodes))
model = GCN(16, 32, 3)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    out = model(features, adj)
    loss = nn.functional.cross_entropy(out, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("epoch", epoch, "loss", loss.item())
