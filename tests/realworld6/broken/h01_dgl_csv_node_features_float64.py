"""GraphSAGE-style node classifier whose node features come from a CSV read with pandas (float64) and are turned into tensors without a dtype
source: https://github.com/dmlc/dgl/pull/3751
reported-error: RuntimeError raised from the linear layer of SAGEConv (fc_neigh) because the CSV node features are float64 while the layer weights are float32
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at line 51
root-cause: line 36
expect: DG005
"""
import argparse
import io

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_csv(num_nodes=60, feat_dim=8, seed=0):
    rng = np.random.default_rng(seed)
    feats = rng.normal(size=(num_nodes, feat_dim)).round(4)
    df = pd.DataFrame(feats, columns=[f"feat_{i}" for i in range(feat_dim)])
    df.insert(0, "node_id", np.arange(num_nodes))
    df["label"] = rng.integers(0, 3, num_nodes)
    edges = pd.DataFrame({"src_id": rng.integers(0, num_nodes, 240), "dst_id": rng.integers(0, num_nodes, 240)})
    return io.StringIO(df.to_csv(index=False)), io.StringIO(edges.to_csv(index=False))


def _tensor(data, dtype=None):
    return torch.tensor(data, dtype=dtype)


def load_node_data(nodes_csv):
    df = pd.read_csv(nodes_csv)
    feat_cols = [c for c in df.columns if c.startswith("feat_")]
    ndata = {
        "feat": _tensor(df[feat_cols].values),  # root-cause
        "label": _tensor(df["label"].values, dtype=torch.long),
    }
    return ndata


class SAGEConv(nn.Module):
    def __init__(self, in_feats, out_feats):
        super().__init__()
        self.fc_self = nn.Linear(in_feats, out_feats, bias=False)
        self.fc_neigh = nn.Linear(in_feats, out_feats)

    def forward(self, adj, feat):
        deg = adj.sum(1, keepdim=True).clamp(min=1)
        h_neigh = (adj @ feat) / deg
        return self.fc_self(feat) + self.fc_neigh(h_neigh)  # fails-here


class SAGE(nn.Module):
    def __init__(self, in_feats, hidden, n_classes):
        super().__init__()
        self.layers = nn.ModuleList([SAGEConv(in_feats, hidden), SAGEConv(hidden, n_classes)])

    def forward(self, adj, x):
        for i, layer in enumerate(self.layers):
            x = layer(adj, x)
            if i != len(self.layers) - 1:
                x = F.relu(x)
        return x


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--hidden", type=int, default=16)
    args = parser.parse_args()
    nodes_csv, edges_csv = make_csv()
    ndata = load_node_data(nodes_csv)
    edges = pd.read_csv(edges_csv)
    n = len(ndata["label"])
    adj = torch.zeros(n, n, dtype=ndata["feat"].dtype)
    adj[edges["src_id"].values, edges["dst_id"].values] = 1
    model = SAGE(ndata["feat"].shape[1], args.hidden, 3)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(args.epochs):
        logits = model(adj, ndata["feat"])
        loss = F.cross_entropy(logits, ndata["label"])
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
