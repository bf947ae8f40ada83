"""Graphormer-style connectome regressor whose feature matrix is still built as float32 NumPy, but the collate step converts the integer-valued node features with .long() before the Embedding encoders
source: https://github.com/microsoft/Graphormer/issues/37
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
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
    feats = np.stack([strength, degree], 1).astype(np.float32)
    return feats, conn.astype(np.float32)


def collate(graphs):
    xs = torch.from_numpy(np.stack([g[0] for g in graphs])).long()
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
        h = self.atom_encoder(x[..., 0]) + self.degree_encoder(x[..., 1])
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
