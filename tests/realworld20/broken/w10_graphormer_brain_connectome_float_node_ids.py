"""Graphormer-style graph regression on brain-connectivity graphs: node and degree features are integer-valued but the collate step builds them from a float NumPy matrix, so the atom/degree Embedding layers receive float indices
source: https://github.com/microsoft/Graphormer/issues/37
reported-error: expected tensor for argument #1 'indices' to have scalar type long but got torch.FloatTensor instead (brain connectivity graphs with integer node features)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding) at line 42
root-cause: line 20
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn


# ---- data/collator.py
def make_connectome(n_regions=20, n_bins=16, seed=0):
    rng = np.random.default_rng(seed)
    conn = rng.random((n_regions, n_regions))
    conn = (conn + conn.T) / 2 > 0.7
    strength = np.digitize(rng.random(n_regions), np.linspace(0, 1, n_bins)) - 1
    degree = conn.sum(1)
    feats = np.stack([strength, degree], 1).astype(np.float32)  # root-cause
    return feats, conn.astype(np.float32)


def collate(graphs):
    xs = torch.from_numpy(np.stack([g[0] for g in graphs]))
    adj = torch.from_numpy(np.stack([g[1] for g in graphs]))
    return xs, adj


# ---- model.py
class GraphormerLite(nn.Module):
    def __init__(self, n_bins=16, max_degree=32, dim=32, heads=4):
        super().__init__()
        self.atom_encoder = nn.Embedding(n_bins, dim)
        self.degree_encoder = nn.Embedding(max_degree, dim)
        self.edge_bias = nn.Parameter(torch.zeros(heads))
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.out = nn.Linear(dim, 1)
        self.heads = heads

    def forward(self, x, adj):
        h = self.atom_encoder(x[..., 0]) + self.degree_encoder(x[..., 1])  # fails-here
        bias = (adj[:, None] * self.edge_bias[None, :, None, None]).flatten(0, 1)
        h, _ = self.attn(h, h, h, attn_mask=bias)
        return self.out(h.mean(1)).squeeze(-1)


if __name__ == "__main__":
    graphs = [make_connectome(seed=s) for s in range(8)]
    iq = torch.randn(8)
    model = GraphormerLite()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    x, adj = collate(graphs)
    loss = nn.functional.l1_loss(model(x, adj), iq)
    loss.backward()
    opt.step()
    print("mae", loss.item())
