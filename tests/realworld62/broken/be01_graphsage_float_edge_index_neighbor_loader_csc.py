"""A GraphSAGE node-classification run on a user's own graph (PyG style): the edge list read from a CSV-like table is made a tensor with torch.Tensor(...), so edge_index is float32; NeighborLoader (re-typed) sorts the edges into CSC form with torch._convert_indices_from_coo_to_csr when it is built, which has no float kernel
source: https://github.com/pyg-team/pytorch_geometric/issues/8299
reported-error: RuntimeError: convert_indices_from_coo_to_csr_cpu not implemented for 'Float' (raised from NeighborLoader(data, num_neighbors=[5, 10], batch_size=16, input_nodes=data.train_mask) inside GraphSAGE.fit)
outcome: NotImplementedError: "convert_indices_from_coo_to_csr_cpu" not implemented for 'Float' at line 31
root-cause: line 116
expect: DG005
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)


class Data:
    """Stand-in for torch_geometric.data.Data (attribute bag)."""

    def __init__(self, x, edge_index, y):
        self.x, self.edge_index, self.y = x, edge_index, y
        self.num_nodes = x.size(0)


def to_csc(edge_index, num_nodes):
    """torch_geometric.sampler.utils.to_csc (re-typed): sort by destination, compress the column pointer."""
    row, col = edge_index
    perm = (col * num_nodes + row).argsort()
    row, col = row[perm], col[perm]
    colptr = torch._convert_indices_from_coo_to_csr(col, num_nodes)  # fails-here
    return colptr, row, perm


class NeighborLoader:
    """Minimal re-typing of torch_geometric.loader.NeighborLoader: CSC at construction, uniform fan-out sampling."""

    def __init__(self, data, num_neighbors, batch_size, input_nodes):
        self.data, self.num_neighbors, self.batch_size = data, num_neighbors, batch_size
        self.colptr, self.row, self.perm = to_csc(data.edge_index, data.num_nodes)
        self.input_nodes = input_nodes.nonzero().view(-1)

    def _sample(self, seeds):
        nodes, edges = seeds, []
        frontier = seeds
        for fanout in self.num_neighbors:
            new = []
            for v in frontier.tolist():
                lo, hi = self.colptr[v].item(), self.colptr[v + 1].item()
                nbrs = self.row[lo:hi]
                if len(nbrs) > fanout:
                    nbrs = nbrs[torch.randperm(len(nbrs))[:fanout]]
                edges += [(int(u), v) for u in nbrs]
                new.append(nbrs)
            frontier = torch.cat(new).unique() if new else frontier[:0]
            nodes = torch.cat([nodes, frontier]).unique()
        return nodes, torch.tensor(edges, dtype=torch.long).t().reshape(2, -1)

    def __iter__(self):
        order = self.input_nodes[torch.randperm(len(self.input_nodes))]
        for i in range(0, len(order), self.batch_size):
            seeds = order[i:i + self.batch_size]
            nodes, edges = self._sample(seeds)
            mapping = torch.full((self.data.num_nodes,), -1, dtype=torch.long)
            mapping[nodes] = torch.arange(len(nodes))
            yield nodes, mapping[edges], mapping[seeds]


class SAGEConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin_l, self.lin_r = nn.Linear(in_dim, out_dim), nn.Linear(in_dim, out_dim, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        deg = torch.zeros(x.size(0)).index_add_(0, dst, torch.ones(dst.numel())).clamp(min=1)
        return self.lin_l(agg / deg.unsqueeze(1)) + self.lin_r(x)


class GraphSAGE(nn.Module):
    def __init__(self, in_dim, hidden, n_classes):
        super().__init__()
        self.convs = nn.ModuleList([SAGEConv(in_dim, hidden), SAGEConv(hidden, n_classes)])

    def forward(self, x, edge_index):
        x = F.relu(self.convs[0](x, edge_index))
        return self.convs[1](x, edge_index)

    def fit(self, data, epochs):
        opt = torch.optim.Adam(self.parameters(), lr=0.01)
        self.train()
        data.train_mask = torch.ones(data.num_nodes, dtype=torch.bool)
        train_loader = NeighborLoader(data, num_neighbors=[5, 10], batch_size=16, input_nodes=data.train_mask)
        for epoch in range(epochs + 1):
            total_loss = 0.0
            for nodes, edges, seed_pos in train_loader:
                opt.zero_grad()
                out = self(data.x[nodes], edges)
                loss = F.cross_entropy(out[seed_pos], data.y[nodes][seed_pos])
                loss.backward()
                opt.step()
                total_loss += loss.item()
            print(f"epoch {epoch}: loss {total_loss:.3f}")


# the user's graph: 120 accounts in 3 communities, an edge table and a feature table
n_nodes, n_classes = 120, 3
community = rng.integers(0, n_classes, n_nodes)
pairs = rng.integers(0, n_nodes, (900, 2))
keep = (community[pairs[:, 0]] == community[pairs[:, 1]]) | (rng.random(900) < 0.1)
edges_df = pd.DataFrame(pairs[keep], columns=["src", "dst"])
features = np.eye(n_classes)[community] + rng.normal(0, 1.0, (n_nodes, n_classes))

dataset = []
edge_index = torch.Tensor(edges_df[["src", "dst"]].values.tolist()).t().contiguous()  # root-cause
x = torch.Tensor(features.tolist())
dataset.append(Data(x=x, edge_index=edge_index, y=torch.from_numpy(community)))
print("edge_index dtype:", edge_index.dtype)

graphsage = GraphSAGE(n_classes, 16, n_classes)
for data in dataset:
    graphsage.fit(data, 2)
