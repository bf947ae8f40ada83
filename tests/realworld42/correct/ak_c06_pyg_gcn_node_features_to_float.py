"""Binary node classification with a two-layer GCN in PyTorch Geometric on the user's own graph (as in ak06: the integer node-table column made a tensor, reshaped with data.x.view(-1, 1), int64 edge_index and labels, boolean masks) with the node features cast as the maintainer answered in pytorch_geometric issue #1446, data.x = data.x.to(torch.float), before the model sees them
source: https://github.com/pyg-team/pytorch_geometric/issues/1446
reported-error: (none filed; the fixed situation of ak06, float node features)
outcome: ok
root-cause: -
expect: none
"""
import networkx as nx
import numpy as np
import pandas as pd

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- torch_geometric/data/data.py (reduced)
class Data:
    def __init__(self, x=None, edge_index=None, y=None, **kwargs):
        self.x, self.edge_index, self.y = x, edge_index, y
        for k, v in kwargs.items():
            setattr(self, k, v)

    @property
    def num_nodes(self):
        return self.x.size(0)

    @property
    def num_node_features(self):
        return 1 if self.x.dim() == 1 else self.x.size(1)

    def to(self, device):
        for k, v in list(self.__dict__.items()):
            if torch.is_tensor(v):
                setattr(self, k, v.to(device))
        return self

    def __repr__(self):
        return "Data({})".format(", ".join("{}={}".format(k, list(v.size())) for k, v in self.__dict__.items()
                                           if torch.is_tensor(v)))


# ---- torch_geometric/nn/conv/gcn_conv.py (PyG 1.6, reduced: add_self_loops + gcn_norm + scatter-add propagate)
class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels, bias=True):
        super(GCNConv, self).__init__()
        self.in_channels, self.out_channels = in_channels, out_channels
        self.weight = nn.Parameter(torch.Tensor(in_channels, out_channels))
        self.bias = nn.Parameter(torch.Tensor(out_channels)) if bias else None
        nn.init.xavier_uniform_(self.weight)
        if self.bias is not None:
            nn.init.zeros_(self.bias)

    def norm(self, edge_index, num_nodes, dtype):
        loops = torch.arange(num_nodes, device=edge_index.device).unsqueeze(0).repeat(2, 1)
        edge_index = torch.cat([edge_index, loops], dim=1)
        edge_weight = torch.ones(edge_index.size(1), dtype=dtype, device=edge_index.device)
        row, col = edge_index
        deg = torch.zeros(num_nodes, dtype=dtype, device=edge_index.device).index_add_(0, row, edge_weight)
        deg_inv_sqrt = deg.pow(-0.5)
        deg_inv_sqrt[deg_inv_sqrt == float('inf')] = 0
        return edge_index, deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col]

    def forward(self, x, edge_index):
        x = torch.matmul(x, self.weight)
        edge_index, norm = self.norm(edge_index, x.size(0), x.dtype)
        row, col = edge_index
        out = torch.zeros_like(x).index_add_(0, col, norm.view(-1, 1) * x[row])
        if self.bias is not None:
            out = out + self.bias
        return out


# ---- the user's graph: an edge list and a node table (pandas), the label is whether a node is "flagged"
def build_graph(num_nodes=200, seed=0):
    rng = np.random.default_rng(seed)
    G = nx.barabasi_albert_graph(num_nodes, 3, seed=seed)
    edges = pd.DataFrame(list(G.edges()), columns=["src", "dst"])
    nodes = pd.DataFrame({"node_id": np.arange(num_nodes)})
    nodes["n_reports"] = [min(G.degree[n] // 2, 9) + int(rng.integers(0, 2)) for n in nodes["node_id"]]
    nodes["flagged"] = (nodes["n_reports"] + rng.integers(0, 3, num_nodes) > 5).astype(int)
    return nodes, edges


nodes, edges = build_graph()
src = np.concatenate([edges["src"].values, edges["dst"].values])
dst = np.concatenate([edges["dst"].values, edges["src"].values])
edge_index = torch.tensor(np.stack([src, dst]), dtype=torch.long)
x = torch.tensor(nodes["n_reports"].values)
y = torch.tensor(nodes["flagged"].values, dtype=torch.long)
perm = torch.randperm(len(nodes), generator=torch.Generator().manual_seed(0))
train_mask = torch.zeros(len(nodes), dtype=torch.bool)
train_mask[perm[:140]] = True
test_mask = ~train_mask

data = Data(x=x, edge_index=edge_index, y=y, train_mask=train_mask, test_mask=test_mask)
data.x = data.x.view(-1, 1)  # "I transformed the node features to shape [num_nodes, 1]"
data.x = data.x.to(torch.float)  # the maintainer's answer in pytorch_geometric issue #1446
print(data)


class Net(torch.nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = GCNConv(data.num_node_features, 16)
        self.conv2 = GCNConv(16, 2)

    def forward(self, data):
        x, edge_index = data.x, data.edge_index
        x = self.conv1(x, edge_index)
        x = F.relu(x)
        x = F.dropout(x, training=self.training)
        x = self.conv2(x, edge_index)
        return F.log_softmax(x, dim=1)


device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
torch.manual_seed(0)
model = Net().to(device)
data = data.to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)

model.train()
for epoch in range(100):
    optimizer.zero_grad()
    out = model(data)
    loss = F.nll_loss(out[data.train_mask], data.y[data.train_mask])
    loss.backward()
    optimizer.step()
    if epoch % 20 == 0:
        print("epoch {} loss {:.4f}".format(epoch, loss.item()))

model.eval()
_, pred = model(data).max(dim=1)
correct = int(pred[data.test_mask].eq(data.y[data.test_mask]).sum().item())
acc = correct / int(data.test_mask.sum())
print('Accuracy: {:.4f}'.format(acc))
