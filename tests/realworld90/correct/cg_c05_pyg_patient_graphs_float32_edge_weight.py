"""The patient-graph classification of cg05 with the edge weights made float32 where each patient's Data is built (edge_weight=edge_weight.float() after from_scipy_sparse_matrix), so the normalised GCN messages stay float32 through the three GCNConv layers, mean pooling and the linear head, and the batched training runs; the scipy adjacency is still float64
source: https://github.com/pyg-team/pytorch_geometric/issues/2557
reported-error: (none; the fixed situation of cg05)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import scipy.sparse as sp
import torch
import torch.nn.functional as F
from torch.nn import Parameter

torch.manual_seed(0)
rng = np.random.default_rng(0)


# ---- torch_geometric stand-ins (1.7.x): Data, Batch collation, DataLoader, from_scipy_sparse_matrix, pooling ----
class Data(object):
    def __init__(self, x=None, edge_index=None, edge_weight=None, y=None):
        self.x, self.edge_index, self.edge_weight, self.y = x, edge_index, edge_weight, y
        self.batch = None

    @property
    def num_nodes(self):
        return self.x.size(0)

    def to(self, device):
        for key in ("x", "edge_index", "edge_weight", "y", "batch"):
            if getattr(self, key) is not None:
                setattr(self, key, getattr(self, key).to(device))
        return self


def from_scipy_sparse_matrix(A):
    A = A.tocoo()
    row = torch.from_numpy(A.row).to(torch.long)
    col = torch.from_numpy(A.col).to(torch.long)
    edge_index = torch.stack([row, col], dim=0)
    edge_weight = torch.from_numpy(A.data)
    return edge_index, edge_weight


def batch_from_data_list(data_list):
    """Batch.from_data_list: concatenate node-level tensors, shift edge_index by the running node count."""
    batch, cumsum = Data(), 0
    xs, eis, ews, ys, bs = [], [], [], [], []
    for i, d in enumerate(data_list):
        xs.append(d.x)
        eis.append(d.edge_index + cumsum)
        ews.append(d.edge_weight)
        ys.append(d.y)
        bs.append(torch.full((d.num_nodes, ), i, dtype=torch.long))
        cumsum += d.num_nodes
    batch.x, batch.edge_index = torch.cat(xs, 0), torch.cat(eis, 1)
    batch.edge_weight, batch.y, batch.batch = torch.cat(ews, 0), torch.cat(ys, 0), torch.cat(bs, 0)
    batch.num_graphs = len(data_list)
    return batch


class DataLoader(torch.utils.data.DataLoader):
    def __init__(self, dataset, batch_size=1, shuffle=False):
        super().__init__(dataset, batch_size, shuffle, collate_fn=batch_from_data_list)


def scatter_add(src, index, dim=0, dim_size=None):
    out = src.new_zeros((dim_size, ) + src.shape[1:])
    return out.index_add_(dim, index, src)


def global_mean_pool(x, batch):
    size = int(batch.max().item() + 1)
    count = scatter_add(torch.ones_like(batch, dtype=x.dtype), batch, dim_size=size).clamp(min=1)
    return scatter_add(x, batch, dim_size=size) / count.view(-1, 1)


# ---- torch_geometric.nn.conv.gcn_conv (1.7.x), propagate written out as a scatter-add ---------------------------
def add_remaining_self_loops(edge_index, edge_weight=None, fill_value=1, num_nodes=None):
    N = num_nodes
    row, col = edge_index[0], edge_index[1]
    mask = row != col

    loop_index = torch.arange(0, N, dtype=row.dtype, device=row.device)
    loop_index = loop_index.unsqueeze(0).repeat(2, 1)
    edge_index = torch.cat([edge_index[:, mask], loop_index], dim=1)

    if edge_weight is not None:
        inv_mask = ~mask
        loop_weight = torch.full((N, ), fill_value, dtype=edge_weight.dtype, device=edge_index.device)
        remaining_edge_weight = edge_weight[inv_mask]
        if remaining_edge_weight.numel() > 0:
            loop_weight[row[inv_mask]] = remaining_edge_weight
        edge_weight = torch.cat([edge_weight[mask], loop_weight], dim=0)

    return edge_index, edge_weight


def gcn_norm(edge_index, edge_weight=None, num_nodes=None, improved=False, add_self_loops=True, dtype=None):
    fill_value = 2. if improved else 1.

    if edge_weight is None:
        edge_weight = torch.ones((edge_index.size(1), ), dtype=dtype, device=edge_index.device)

    if add_self_loops:
        edge_index, tmp_edge_weight = add_remaining_self_loops(edge_index, edge_weight, fill_value, num_nodes)
        assert tmp_edge_weight is not None
        edge_weight = tmp_edge_weight

    row, col = edge_index[0], edge_index[1]
    deg = scatter_add(edge_weight, col, dim=0, dim_size=num_nodes)
    deg_inv_sqrt = deg.pow_(-0.5)
    deg_inv_sqrt.masked_fill_(deg_inv_sqrt == float('inf'), 0)
    return edge_index, deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col]


class GCNConv(torch.nn.Module):
    def __init__(self, in_channels, out_channels, improved=False, add_self_loops=True, normalize=True, bias=True):
        super(GCNConv, self).__init__()
        self.improved, self.add_self_loops, self.normalize = improved, add_self_loops, normalize
        self.weight = Parameter(torch.Tensor(in_channels, out_channels))
        self.bias = Parameter(torch.Tensor(out_channels)) if bias else None
        torch.nn.init.xavier_uniform_(self.weight)
        if self.bias is not None:
            torch.nn.init.zeros_(self.bias)

    def forward(self, x, edge_index, edge_weight=None):
        if self.normalize:
            edge_index, edge_weight = gcn_norm(  # yapf: disable
                edge_index, edge_weight, x.size(0), self.improved, self.add_self_loops, dtype=x.dtype)

        x = torch.matmul(x, self.weight)

        # message: edge_weight.view(-1, 1) * x_j, aggr='add'
        row, col = edge_index[0], edge_index[1]
        out = scatter_add(edge_weight.view(-1, 1) * x[row], col, dim=0, dim_size=x.size(0))

        if self.bias is not None:
            out += self.bias

        return out


# ---- src/patient_graphs: one graph per patient (visits as nodes, similar visits linked) and the PGCN model ------
def make_patient_graph(label):
    n_visits = int(rng.integers(6, 14))
    feats = rng.normal(0, 1, (n_visits, 12)) + 0.25 * label
    sim = np.corrcoef(feats)
    adj = sp.csr_matrix(np.triu(sim > 0.3, k=1))
    adj = adj + adj.T + sp.eye(n_visits)
    edge_index, edge_weight = from_scipy_sparse_matrix(adj)
    x = torch.tensor(feats, dtype=torch.float)
    y = torch.tensor([label], dtype=torch.long)
    return Data(x=x, edge_index=edge_index, edge_weight=edge_weight.float(), y=y)


class PGCN(torch.nn.Module):
    def __init__(self, num_features, hidden, num_layers, num_classes):
        super().__init__()
        dims = [num_features] + [hidden] * num_layers
        self.gcnconv = torch.nn.ModuleList(GCNConv(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.lin = torch.nn.Linear(hidden, num_classes)

    def forward(self, x, edge_index, edge_weight, batch):
        x = self.graph_message_passing(x, edge_index, edge_weight)
        x = global_mean_pool(x, batch)
        return self.lin(x)

    def graph_message_passing(self, x, edge_index, edge_weight):
        return self.gcn_message_passing(x, edge_index, edge_weight)

    def gcn_message_passing(self, x, edge_index, edge_weight):
        for i in range(len(self.gcnconv)):
            x = self.gcnconv[i](x, edge_index, edge_weight)
            x = F.relu(x)
        return x


def main():
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    dataset = [make_patient_graph(int(label)) for label in rng.integers(0, 2, 96)]
    train_loader = DataLoader(dataset[:72], batch_size=8, shuffle=True)
    test_loader = DataLoader(dataset[72:], batch_size=8)
    model = PGCN(num_features=12, hidden=32, num_layers=3, num_classes=2).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

    for epoch in range(10):
        model.train()
        total = 0.0
        for data in train_loader:
            data = data.to(device)
            optimizer.zero_grad()
            outputs = model(data.x, data.edge_index, data.edge_weight, data.batch)
            loss = F.cross_entropy(outputs, data.y)
            loss.backward()
            optimizer.step()
            total += loss.item() * data.num_graphs
        model.eval()
        correct = 0
        with torch.no_grad():
            for data in test_loader:
                data = data.to(device)
                pred = model(data.x, data.edge_index, data.edge_weight, data.batch).argmax(dim=1)
                correct += int((pred == data.y).sum())
        print(f"epoch {epoch}: loss {total / 72:.4f} test acc {correct / 24:.3f}")


main()
