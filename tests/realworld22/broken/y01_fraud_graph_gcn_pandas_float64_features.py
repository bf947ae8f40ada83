"""Transaction-fraud node classification with a pure-torch GCN (DGL-tutorial layout): the node features come from a pandas frame of account statistics via df[cols].values, which is float64, and are stored as the graph's 'feat' tensor; the float32 GraphConv weight then meets float64 features in the first layer
source: https://github.com/dmlc/dgl/issues/3052
reported-error: RuntimeError: Expected object of scalar type Double but got scalar type Float for argument #3 'mat2' (GraphConv forward rst = th.matmul(rst, weight); ndata 'feat' had dtype=torch.float64)
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at line 53
root-cause: line 38
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- graph.py
class SimpleGraph:
    def __init__(self, src, dst, num_nodes):
        self.num_nodes = num_nodes
        adj = torch.zeros(num_nodes, num_nodes)
        adj[src, dst] = 1.0
        adj = adj + adj.t() + torch.eye(num_nodes)
        deg = adj.sum(1)
        self.norm_adj = adj / deg.sqrt().unsqueeze(0) / deg.sqrt().unsqueeze(1)
        self.ndata = {}


def build_account_graph(n_accounts=100, n_edges=400, seed=0):
    rng = np.random.default_rng(seed)
    accounts = pd.DataFrame({
        "amount_mean": rng.gamma(2.0, 50.0, n_accounts),
        "tx_count": rng.poisson(20, n_accounts),
    })
    accounts["log_amount"] = np.log1p(accounts["amount_mean"])
    accounts["label"] = (accounts["amount_mean"] > 150).astype(np.int64)
    src = torch.from_numpy(rng.integers(0, n_accounts, n_edges))
    dst = torch.from_numpy(rng.integers(0, n_accounts, n_edges))
    g = SimpleGraph(src, dst, n_accounts)
    g.ndata["feat"] = torch.tensor(accounts[["log_amount", "tx_count"]].values)  # root-cause
    g.ndata["label"] = torch.tensor(accounts["label"].to_numpy())
    g.ndata["train_mask"] = torch.rand(n_accounts) < 0.6
    return g


# ---- model.py
class GraphConv(nn.Module):
    def __init__(self, in_feats, out_feats):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_feats, out_feats))
        self.bias = nn.Parameter(torch.zeros(out_feats))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, g, feat):
        rst = torch.matmul(feat, self.weight)  # fails-here
        return g.norm_adj @ rst + self.bias


class GCN(nn.Module):
    def __init__(self, in_feats, h_feats, num_classes):
        super().__init__()
        self.conv1 = GraphConv(in_feats, h_feats)
        self.conv2 = GraphConv(h_feats, num_classes)

    def forward(self, g, in_feat):
        h = F.relu(self.conv1(g, in_feat))
        return self.conv2(g, h)


def train(g, model, epochs=20):
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    features, labels, mask = g.ndata["feat"], g.ndata["label"], g.ndata["train_mask"]
    for e in range(epochs):
        logits = model(g, features)
        loss = F.cross_entropy(logits[mask], labels[mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    acc = (logits.argmax(1)[~mask] == labels[~mask]).float().mean()
    print(f"loss {loss.item():.3f} test acc {acc.item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    g = build_account_graph()
    model = GCN(g.ndata["feat"].shape[1], 16, num_classes=2)
    train(g, model)
