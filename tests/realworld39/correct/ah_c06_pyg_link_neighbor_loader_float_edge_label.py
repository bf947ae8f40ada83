"""GraphSAGE link prediction with PyG's LinkNeighborLoader and negative sampling (as in ah06) with LinkNeighborLoader as pull request #5136 left it: a missing edge_label stays None (or ones when no negatives are sampled), _create_label makes torch.ones float labels for the positive edges and new_zeros float labels for the negatives, and binary_cross_entropy_with_logits gets float targets next to the int64 edge_label_index
source: https://github.com/pyg-team/pytorch_geometric/pull/5136
reported-error: (none filed; the fixed situation of ah06, pytorch_geometric pull request #5136)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- torch_geometric/data/data.py (the parts the loader uses)
class Data:
    def __init__(self, x=None, edge_index=None, **kwargs):
        self.x = x
        self.edge_index = edge_index
        for key, value in kwargs.items():
            setattr(self, key, value)

    @property
    def num_nodes(self):
        return self.x.size(0)

    def __repr__(self):
        return (f"Data(x={list(self.x.shape)}, edge_index={list(self.edge_index.shape)}"
                + (f", edge_label={list(self.edge_label.shape)}" if hasattr(self, "edge_label") else "") + ")")


# ---- torch_geometric/utils/to_undirected.py
def to_undirected(edge_index, num_nodes):
    row, col = edge_index
    row, col = torch.cat([row, col]), torch.cat([col, row])
    idx = torch.unique(row * num_nodes + col)
    return torch.stack([idx // num_nodes, idx % num_nodes], dim=0)


# ---- torch_geometric/loader/link_neighbor_loader.py
def get_edge_label_index(data, edge_label_index):
    if edge_label_index is None:
        return None, data.edge_index
    return None, edge_label_index


class LinkNeighborSampler:
    def __init__(self, data, num_neighbors, neg_sampling_ratio=0.0):
        self.data = data
        self.num_neighbors = num_neighbors
        self.neg_sampling_ratio = neg_sampling_ratio
        self.num_src_nodes = self.num_dst_nodes = data.num_nodes
        row, col = data.edge_index.numpy()
        order = np.argsort(col, kind="stable")
        self.rowptr = np.concatenate([[0], np.cumsum(np.bincount(col, minlength=data.num_nodes))])
        self.row = row[order]
        self.rng = np.random.default_rng(0)

    def _create_label(self, edge_label_index, edge_label):
        device = edge_label_index.device
        num_pos_edges = edge_label_index.size(1)
        num_neg_edges = int(num_pos_edges * self.neg_sampling_ratio)
        if num_neg_edges == 0:
            return edge_label_index, edge_label
        if edge_label is None:
            edge_label = torch.ones(num_pos_edges, device=device)
        else:
            assert edge_label.dtype == torch.long
            edge_label = edge_label + 1
        neg_row = torch.randint(self.num_src_nodes, (num_neg_edges, ))
        neg_col = torch.randint(self.num_dst_nodes, (num_neg_edges, ))
        neg_edge_index = torch.stack([neg_row, neg_col], dim=0)
        neg_edge_label = edge_label.new_zeros((num_neg_edges, ) + edge_label.size()[1:])
        edge_label_index = torch.cat([edge_label_index, neg_edge_index], dim=-1)
        edge_label = torch.cat([edge_label, neg_edge_label], dim=0)
        return edge_label_index, edge_label

    def _sample_neighbors(self, seeds):
        nodes = list(seeds)
        assoc = {n: i for i, n in enumerate(nodes)}
        rows, cols = [], []
        frontier = list(seeds)
        for k in self.num_neighbors:
            next_frontier = []
            for v in frontier:
                nbrs = self.row[self.rowptr[v]:self.rowptr[v + 1]]
                if len(nbrs) > k:
                    nbrs = self.rng.choice(nbrs, k, replace=False)
                for u in nbrs:
                    if u not in assoc:
                        assoc[u] = len(nodes)
                        nodes.append(u)
                        next_frontier.append(u)
                    rows.append(assoc[u])
                    cols.append(assoc[v])
            frontier = next_frontier
        return torch.tensor(nodes, dtype=torch.long), torch.tensor([rows, cols], dtype=torch.long), assoc

    def __call__(self, index):
        index = torch.tensor(index, dtype=torch.long)
        edge_label_index = self.edge_label_index[:, index]
        edge_label = self.edge_label[index] if self.edge_label is not None else None
        edge_label_index, edge_label = self._create_label(edge_label_index, edge_label)
        seeds = torch.unique(edge_label_index.flatten()).tolist()
        node, edge_index, assoc = self._sample_neighbors(seeds)
        local = torch.tensor([[assoc[int(v)] for v in row] for row in edge_label_index.tolist()], dtype=torch.long)
        return Data(x=self.data.x[node], edge_index=edge_index, n_id=node, edge_label_index=local,
                    edge_label=edge_label)


class LinkNeighborLoader(torch.utils.data.DataLoader):
    def __init__(self, data, num_neighbors, edge_label_index=None, edge_label=None, neg_sampling_ratio=0.0,
                 **kwargs):
        self.data = data
        self.num_neighbors = num_neighbors
        self.neg_sampling_ratio = neg_sampling_ratio
        edge_type, edge_label_index = get_edge_label_index(data, edge_label_index)
        if edge_label is None and self.neg_sampling_ratio == 0:
            edge_label = torch.ones(edge_label_index.size(1), device=edge_label_index.device)
        self.edge_label_index = edge_label_index
        self.edge_label = edge_label
        self.neighbor_sampler = LinkNeighborSampler(data, num_neighbors, neg_sampling_ratio)
        self.neighbor_sampler.edge_label_index = edge_label_index
        self.neighbor_sampler.edge_label = edge_label
        super().__init__(range(edge_label_index.size(1)), collate_fn=self.neighbor_sampler, **kwargs)


# ---- torch_geometric/nn/conv/sage_conv.py (mean aggregation)
class SAGEConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin_l = nn.Linear(in_channels, out_channels)
        self.lin_r = nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        deg = torch.zeros(x.size(0), dtype=x.dtype).index_add_(0, dst, torch.ones_like(dst, dtype=x.dtype))
        agg = agg / deg.clamp(min=1).unsqueeze(-1)
        return self.lin_l(agg) + self.lin_r(x)


# ---- the user's link prediction script
class GNN(nn.Module):
    def __init__(self, in_channels, hidden_channels):
        super().__init__()
        self.conv1 = SAGEConv(in_channels, hidden_channels)
        self.conv2 = SAGEConv(hidden_channels, hidden_channels)

    def forward(self, x, edge_index):
        x = F.relu(self.conv1(x, edge_index))
        return self.conv2(x, edge_index)


class Model(nn.Module):
    def __init__(self, in_channels, hidden_channels):
        super().__init__()
        self.gnn = GNN(in_channels, hidden_channels)

    def forward(self, batch):
        z = self.gnn(batch.x, batch.edge_index)
        src, dst = batch.edge_label_index
        return (z[src] * z[dst]).sum(dim=-1)


def make_citation_graph(num_nodes=300, num_feats=16, num_communities=4, seed=0):
    rng = np.random.default_rng(seed)
    community = rng.integers(0, num_communities, num_nodes)
    centers = rng.normal(0, 1, (num_communities, num_feats))
    x = centers[community] + rng.normal(0, 0.5, (num_nodes, num_feats))
    edges = []
    for i in range(num_nodes):
        same = np.flatnonzero(community == community[i])
        for j in rng.choice(same, 3, replace=False):
            if i != j:
                edges.append((i, j))
        j = rng.integers(0, num_nodes)
        if j != i:
            edges.append((i, j))
    edge_index = to_undirected(torch.tensor(edges, dtype=torch.long).t(), num_nodes)
    return Data(x=torch.tensor(x, dtype=torch.float), edge_index=edge_index)


def train(model, loader, optimizer):
    model.train()
    total_loss = total_examples = 0
    for batch in loader:
        optimizer.zero_grad()
        pred = model(batch)
        loss = F.binary_cross_entropy_with_logits(pred, batch.edge_label)
        loss.backward()
        optimizer.step()
        total_loss += float(loss) * pred.numel()
        total_examples += pred.numel()
    return total_loss / total_examples


def main():
    torch.manual_seed(0)
    data = make_citation_graph()
    perm = torch.randperm(data.edge_index.size(1))
    train_edge_index = data.edge_index[:, perm[: int(0.8 * perm.numel())]]
    train_data = Data(x=data.x, edge_index=train_edge_index)
    train_loader = LinkNeighborLoader(train_data, num_neighbors=[10, 5], edge_label_index=train_edge_index,
                                      neg_sampling_ratio=1.0, batch_size=128, shuffle=True)
    print(next(iter(train_loader)))
    model = Model(in_channels=data.x.size(1), hidden_channels=32)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(1, 4):
        loss = train(model, train_loader, optimizer)
        print(f"Epoch: {epoch:03d}, Loss: {loss:.4f}")


if __name__ == "__main__":
    main()
