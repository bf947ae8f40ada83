"""Pure-torch GIN graph classifier: collate_graphs() builds the node-to-graph batch vector with torch.cat of torch.full((n,), float(i)) pieces, and global_add_pool() uses it as the scatter_add_ index
source: https://github.com/Shen-Lab/GraphCL/issues/44
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Float for argument #3 'index' in call to _th_scatter_add_ (in global_add_pool(x, batch))
outcome: RuntimeError: scatter(): Expected dtype int32/int64 for index at line 39
root-cause: line 30
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- data.py
def random_graph(rng, n_min=5, n_max=12, n_feat=7):
    n = int(rng.integers(n_min, n_max))
    edges = np.array([(i, j) for i in range(n) for j in range(n) if i != j and rng.random() < 0.3]).T
    if edges.size == 0:
        edges = np.array([[0], [1]])
    x = rng.normal(size=(n, n_feat)).astype(np.float32)
    return {"x": x, "edge_index": edges.astype(np.int64), "y": int(rng.integers(0, 2))}


def collate_graphs(graphs):
    xs, eis, batch, offset = [], [], [], 0
    for i, g in enumerate(graphs):
        n = len(g["x"])
        xs.append(torch.from_numpy(g["x"]))
        eis.append(torch.from_numpy(g["edge_index"]) + offset)
        batch.append(torch.full((n,), float(i)))  # root-cause
        offset += n
    y = torch.tensor([g["y"] for g in graphs])
    return torch.cat(xs), torch.cat(eis, 1), torch.cat(batch), y


# ---- layers.py
def global_add_pool(x, batch, size):
    out = torch.zeros(size, x.size(1))
    return out.scatter_add_(0, batch.unsqueeze(-1).expand_as(x), x)  # fails-here


class GINLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(d_in, d_out), nn.ReLU(), nn.Linear(d_out, d_out))

    def forward(self, x, edge_index):
        agg = torch.zeros_like(x).index_add_(0, edge_index[1], x[edge_index[0]])
        return self.mlp(x + agg)


class GIN(nn.Module):
    def __init__(self, n_feat=7, hidden=32, n_classes=2):
        super().__init__()
        self.l1, self.l2 = GINLayer(n_feat, hidden), GINLayer(hidden, hidden)
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, x, edge_index, batch, n_graphs):
        x = F.relu(self.l1(x, edge_index))
        x = F.relu(self.l2(x, edge_index))
        return self.head(global_add_pool(x, batch, n_graphs))


rng = np.random.default_rng(0)
graphs = [random_graph(rng) for _ in range(64)]
model = GIN()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(2):
    for i in range(0, 64, 16):
        x, ei, batch, y = collate_graphs(graphs[i:i + 16])
        loss = F.cross_entropy(model(x, ei, batch, len(y)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "loss", round(loss.item(), 4))
