"""The molecular GNN of be06 (pyg-team/pytorch_geometric PR #1955) with the PR's fix in from_networkx: edge_index = torch.LongTensor(list(G.edges)).t().contiguous() is int64 even for a lone ion with no bonds, so every batch's concatenated edge_index stays int64 and message passing runs; the atom types made with torch.tensor(list of Python ints) (int64, the Embedding input) and the float targets are kept
source: https://github.com/pyg-team/pytorch_geometric/pull/1955
reported-error: (none filed; the fixed situation of be06)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)
ATOMS = {"H": 0, "C": 1, "N": 2, "O": 3, "Na": 4, "Cl": 5}


class Graph:
    """The part of networkx.Graph that from_networkx uses: node attributes and an edge list."""

    def __init__(self):
        self._nodes, self._edges = {}, []

    def add_node(self, n, **attr):
        self._nodes[n] = attr

    def add_edge(self, u, v):
        self._edges.append((u, v))

    @property
    def edges(self):
        return list(self._edges)

    def nodes(self, data=False):
        return list(self._nodes.items()) if data else list(self._nodes)

    def number_of_nodes(self):
        return len(self._nodes)


class Data:
    def __init__(self, **kw):
        self.__dict__.update(kw)


def from_networkx(G):
    """torch_geometric.utils.from_networkx after PR #1955 (re-typed, node labels already 0..n-1)."""
    edge_index = torch.LongTensor(list(G.edges)).t().contiguous()
    data = {}
    for i, (_, feat_dict) in enumerate(G.nodes(data=True)):
        for key, value in feat_dict.items():
            data[key] = [value] if i == 0 else data[key] + [value]
    for key, item in data.items():
        data[key] = torch.tensor(item)
    data["edge_index"] = edge_index.view(2, -1)
    data = Data(**data)
    data.num_nodes = G.number_of_nodes()
    return data


def collate(data_list):
    """Batch.from_data_list (re-typed): concatenate node features, shift and concatenate edge lists."""
    xs, edges, batch, offset = [], [], [], 0
    for i, d in enumerate(data_list):
        xs.append(d.atom)
        edges.append(d.edge_index + offset)
        batch.append(torch.full((d.num_nodes,), i, dtype=torch.long))
        offset += d.num_nodes
    return torch.cat(xs), torch.cat(edges, dim=1), torch.cat(batch), torch.stack([d.y for d in data_list])


class GINConv(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, x, edge_index):
        src, dst = edge_index[0], edge_index[1]
        msg = x.index_select(0, src)
        return self.mlp(x + torch.zeros_like(x).index_add_(0, dst, msg))


class MolNet(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.emb = nn.Embedding(len(ATOMS), dim)
        self.convs = nn.ModuleList([GINConv(dim), GINConv(dim)])
        self.head = nn.Linear(dim, 1)

    def forward(self, atom, edge_index, batch, n_graphs):
        h = self.emb(atom)
        for conv in self.convs:
            h = F.relu(conv(h, edge_index))
        pooled = torch.zeros(n_graphs, h.size(1)).index_add_(0, batch, h)
        return self.head(pooled).squeeze(-1)


def random_molecule():
    g = Graph()
    if rng.random() < 0.1:  # a lone ion, e.g. Na+ or Cl- from a salt entry: no bonds
        g.add_node(0, atom=ATOMS[rng.choice(["Na", "Cl"])])
        return g, 0.0
    n = int(rng.integers(3, 9))
    for i in range(n):
        g.add_node(i, atom=ATOMS[rng.choice(["C", "C", "N", "O", "H"])])
    for i in range(1, n):
        j = int(rng.integers(0, i))
        g.add_edge(i, j)
        g.add_edge(j, i)
    return g, float(n) * 0.3 + rng.normal(0, 0.1)


dataset = []
for _ in range(200):
    g, target = random_molecule()
    d = from_networkx(g)
    d.y = torch.tensor(target, dtype=torch.float)
    dataset.append(d)
print("edge_index dtypes in the dataset:", sorted({str(d.edge_index.dtype) for d in dataset}))

model = MolNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(5):
    perm = rng.permutation(len(dataset))
    total = 0.0
    for i in range(0, len(perm), 32):
        atom, edge_index, batch, y = collate([dataset[j] for j in perm[i:i + 32]])
        pred = model(atom, edge_index, batch, len(y))
        loss = F.mse_loss(pred, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch}: loss {total:.3f}")
