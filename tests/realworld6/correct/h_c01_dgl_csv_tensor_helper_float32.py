"""GraphSAGE-style node classifier loading CSV node features with pandas; the _tensor helper converts float64 columns to float32 (the merged fix), and dtype= is passed through it for labels
source: https://github.com/dmlc/dgl/pull/3751
reported-error: none (fixed version: "Float64 is not supported in DGL kernels, so let's convert to float32")
outcome: ok
root-cause: -
expect: none
"""
import io

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_csv(num_nodes=60, feat_dim=8, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(rng.normal(size=(num_nodes, feat_dim)).round(4), columns=[f"feat_{i}" for i in range(feat_dim)])
    df["label"] = rng.integers(0, 3, num_nodes)
    edges = pd.DataFrame({"src_id": rng.integers(0, num_nodes, 240), "dst_id": rng.integers(0, num_nodes, 240)})
    return io.StringIO(df.to_csv(index=False)), io.StringIO(edges.to_csv(index=False))


def _tensor(data, dtype=None):
    """Float64 is not supported in the kernels, so convert to float32."""
    ret = torch.tensor(data, dtype=dtype)
    if ret.dtype == torch.float64:
        ret = ret.to(torch.float32)
    return ret


def load_node_data(nodes_csv):
    df = pd.read_csv(nodes_csv)
    feat_cols = [c for c in df.columns if c.startswith("feat_")]
    return {"feat": _tensor(df[feat_cols].values), "label": _tensor(df["label"].values, dtype=torch.long)}


class SAGEConv(nn.Module):
    def __init__(self, in_feats, out_feats):
        super().__init__()
        self.fc_self = nn.Linear(in_feats, out_feats, bias=False)
        self.fc_neigh = nn.Linear(in_feats, out_feats)

    def forward(self, adj, feat):
        h_neigh = (adj @ feat) / adj.sum(1, keepdim=True).clamp(min=1)
        return self.fc_self(feat) + self.fc_neigh(h_neigh)


if __name__ == "__main__":
    nodes_csv, edges_csv = make_csv()
    ndata = load_node_data(nodes_csv)
    edges = pd.read_csv(edges_csv)
    n = len(ndata["label"])
    adj = torch.zeros(n, n, dtype=ndata["feat"].dtype)
    adj[edges["src_id"].values, edges["dst_id"].values] = 1
    layers = nn.ModuleList([SAGEConv(ndata["feat"].shape[1], 16), SAGEConv(16, 3)])
    opt = torch.optim.Adam(layers.parameters(), lr=1e-2)
    for epoch in range(3):
        h = F.relu(layers[0](adj, ndata["feat"]))
        loss = F.cross_entropy(layers[1](adj, h), ndata["label"])
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
