"""Kipf-style GCN whose sparse_to_torch() converts the scipy COO adjacency with mx.astype(np.float32) first, so torch.sparse.mm multiplies float32 by float32
source: https://github.com/rusty1s/pytorch_sparse/issues/13
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import scipy.sparse as sp
import torch
import torch.nn as nn


def sparse_to_torch(mx):
    mx = mx.tocoo().astype(np.float32)
    indices = torch.from_numpy(np.vstack((mx.row, mx.col)).astype(np.int64))
    return torch.sparse_coo_tensor(indices, torch.from_numpy(mx.data), mx.shape)


def normalize_adj(adj):
    adj = adj + sp.eye(adj.shape[0])
    d_inv_sqrt = sp.diags(np.power(np.asarray(adj.sum(1)).flatten(), -0.5))
    return d_inv_sqrt @ adj @ d_inv_sqrt


class GraphConvolution(nn.Module):
    def __init__(self, nin, nout):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(nin, nout))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, x, adj):
        return torch.sparse.mm(adj, x @ self.weight)


rng = np.random.default_rng(0)
raw = sp.coo_matrix((np.ones(200), (rng.integers(0, 60, 200), rng.integers(0, 60, 200))), shape=(60, 60))
adj = sparse_to_torch(normalize_adj(((raw + raw.T) > 0).astype(float)))
x = torch.from_numpy(rng.normal(size=(60, 16)).astype(np.float32))
y = torch.from_numpy(rng.integers(0, 3, 60))
gc1, gc2 = GraphConvolution(16, 32), GraphConvolution(32, 3)
opt = torch.optim.Adam(list(gc1.parameters()) + list(gc2.parameters()), lr=0.01)
for epoch in range(3):
    loss = nn.functional.cross_entropy(gc2(torch.relu(gc1(x, adj)), adj), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
