"""Citation-graph node classifier with a hand-written message-passing layer (index_select / index_add_): the edge list is read from a CSV with pandas, where missing targets made the dst column float64, and edge_index is built with torch.tensor(df.values.T) without a dtype
source: https://github.com/pyg-team/pytorch_geometric/issues/1235
reported-error: I accidentally used floats in my edge_index tensor and the TAGConv layer gave me a cryptic error (Add warning if edge_index tensor has wrong datatype)
outcome: RuntimeError: index_select(): Expected dtype int32 or int64 for index at line 38
root-cause: line 22
expect: DG005
"""
import io

import numpy as np
import pandas as pd
import torch
import torch.nn as nn

EDGES_CSV = "src,dst,weight\n" + "\n".join(f"{i},{'' if i % 9 == 0 else (i * 7 + 3) % 50},1.0" for i in range(50))


# ---- data.py
def load_graph(n_nodes=50, n_feat=16, seed=0):
    df = pd.read_csv(io.StringIO(EDGES_CSV))
    df = df.fillna({"dst": 0, "weight": df["weight"].mean()})  # unlinked papers point to node 0
    edge_index = torch.tensor(df[["src", "dst"]].values.T)  # root-cause
    rng = np.random.default_rng(seed)
    x = torch.from_numpy(rng.standard_normal((n_nodes, n_feat)).astype(np.float32))
    y = torch.from_numpy(rng.integers(0, 3, n_nodes))
    return x, edge_index, y


# ---- layers.py
class MeanConv(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.lin = nn.Linear(cin, cout)
        self.root = nn.Linear(cin, cout, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index
        msg = x.index_select(0, src)  # fails-here
        agg = torch.zeros_like(x).index_add_(0, dst, msg)
        deg = torch.zeros(x.size(0)).index_add_(0, dst, torch.ones(dst.numel())).clamp(min=1)
        return self.lin(agg / deg[:, None]) + self.root(x)


class GCN(nn.Module):
    def __init__(self, cin, hidden, n_classes):
        super().__init__()
        self.c1, self.c2 = MeanConv(cin, hidden), MeanConv(hidden, n_classes)

    def forward(self, x, edge_index):
        return self.c2(torch.relu(self.c1(x, edge_index)), edge_index)


if __name__ == "__main__":
    x, edge_index, y = load_graph()
    model = GCN(16, 32, 3)
    opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    for epoch in range(5):
        loss = nn.functional.cross_entropy(model(x, edge_index), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("loss", loss.item())
