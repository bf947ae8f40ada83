"""The heterogeneous flow-classification run of cg06 with the training mask made boolean as the thread's working variant has it (torch.ones(n, dtype=torch.bool)), so NeighborLoader turns it into the 600 flow indices, every flow is a seed once per epoch and the model beats the majority class on the full graph
source: https://github.com/pyg-team/pytorch_geometric/issues/7855
reported-error: (none; the fixed situation of cg06)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)

SUBGRAPH_SIZE, BATCH_SIZE = 8, 8


# ---- torch_geometric stand-ins: HeteroData storage and NeighborLoader (input handling as in loader/utils.py) ----
class Storage(object):
    pass


class HeteroData(object):
    def __init__(self):
        self._stores = {}

    def __getitem__(self, key):
        if key not in self._stores:
            self._stores[key] = Storage()
        return self._stores[key]

    @property
    def edge_types(self):
        return [k for k in self._stores if isinstance(k, tuple)]


def get_input_nodes(data, input_nodes):
    def to_index(tensor):
        if isinstance(tensor, torch.Tensor) and tensor.dtype == torch.bool:
            return tensor.nonzero(as_tuple=False).view(-1)
        if not isinstance(tensor, torch.Tensor):
            return torch.tensor(tensor, dtype=torch.long)
        return tensor

    if isinstance(input_nodes, str):
        return input_nodes, torch.arange(data[input_nodes].num_nodes)
    node_type, input_nodes = input_nodes
    if input_nodes is None:
        return node_type, torch.arange(data[node_type].num_nodes)
    return node_type, to_index(input_nodes)


class NeighborLoader(object):
    """Seeds from input_nodes in batches of batch_size; every neighbour (num_neighbors=-1) for two hops,
    flow -> host -> flow; the seeds come first in batch['flow'] (batch['flow'].batch_size of them)."""

    def __init__(self, data, num_neighbors, input_nodes, batch_size=1, shuffle=False, directed=True):
        self.data, self.batch_size, self.shuffle = data, batch_size, shuffle
        self.input_type, self.input_nodes = get_input_nodes(data, input_nodes)

    def __len__(self):
        return (self.input_nodes.numel() + self.batch_size - 1) // self.batch_size

    def __iter__(self):
        order = torch.randperm(self.input_nodes.numel()) if self.shuffle else torch.arange(self.input_nodes.numel())
        for start in range(0, order.numel(), self.batch_size):
            yield self.sample(self.input_nodes[order[start:start + self.batch_size]])

    def sample(self, seed):
        d = self.data
        src, dst = d['host', 'sends', 'flow'].edge_index
        hop1 = torch.isin(dst, seed)
        hosts = torch.unique(src[hop1])
        hop2 = torch.isin(src, hosts)
        flows = torch.cat([seed, torch.unique(dst[hop2])])
        e_src, e_dst = src[torch.isin(dst, flows) & torch.isin(src, hosts)], dst[torch.isin(dst, flows) & torch.isin(src, hosts)]
        flow_pos = {int(n): i for i, n in reversed(list(enumerate(flows.tolist())))}
        host_pos = {int(n): i for i, n in enumerate(hosts.tolist())}
        batch = HeteroData()
        batch['flow'].x, batch['flow'].y, batch['flow'].n_id = d['flow'].x[flows], d['flow'].y[flows], flows
        batch['flow'].batch_size = seed.numel()
        batch['host'].x = d['host'].x[hosts]
        batch['host', 'sends', 'flow'].edge_index = torch.tensor(
            [[host_pos[int(s)] for s in e_src], [flow_pos[int(t)] for t in e_dst]], dtype=torch.long).view(2, -1)
        return batch


# ---- the user's model: a two-layer heterogeneous GraphSAGE (mean aggregation) for the flow nodes --------------------
def mean_aggr(x_src, index_src, index_dst, size):
    out = x_src.new_zeros(size, x_src.size(1)).index_add_(0, index_dst, x_src[index_src])
    cnt = x_src.new_zeros(size).index_add_(0, index_dst, torch.ones_like(index_dst, dtype=x_src.dtype))
    return out / cnt.clamp(min=1).unsqueeze(1)


class HeteroSAGE(torch.nn.Module):
    def __init__(self, flow_dim, host_dim, hidden, num_classes):
        super().__init__()
        self.flow_in, self.host_in = torch.nn.Linear(flow_dim, hidden), torch.nn.Linear(host_dim, hidden)
        self.host_from_flow = torch.nn.Linear(hidden, hidden)
        self.flow_self1, self.flow_from_host1 = torch.nn.Linear(hidden, hidden), torch.nn.Linear(hidden, hidden)
        self.flow_self2, self.flow_from_host2 = torch.nn.Linear(hidden, hidden), torch.nn.Linear(hidden, hidden)
        self.out = torch.nn.Linear(hidden, num_classes)

    def forward(self, x_flow, x_host, edge_index):
        h_src, f_dst = edge_index
        hf, hh = F.relu(self.flow_in(x_flow)), F.relu(self.host_in(x_host))
        hh2 = F.relu(hh + self.host_from_flow(mean_aggr(hf, f_dst, h_src, hh.size(0))))
        hf1 = F.relu(self.flow_self1(hf) + self.flow_from_host1(mean_aggr(hh, h_src, f_dst, hf.size(0))))
        hf2 = F.relu(self.flow_self2(hf1) + self.flow_from_host2(mean_aggr(hh2, h_src, f_dst, hf.size(0))))
        return self.out(hf2)


# ---- the user's data (NetFlow records: hosts and flows, a flow is malicious when it comes from a scanning host) ---
def build_graph(n_hosts=40, n_flows=600):
    data = HeteroData()
    scanners = rng.choice(n_hosts, 4, replace=False)
    src = rng.integers(0, n_hosts, n_flows)
    dst = rng.integers(0, n_hosts, n_flows)
    y = np.isin(src, scanners).astype(np.int64)
    flow_x = rng.normal(0, 1, (n_flows, 8))
    flow_x[:, 0] += 2.0 * y
    host_x = np.eye(n_hosts) + rng.normal(0, 0.1, (n_hosts, n_hosts))
    data['flow'].x = torch.tensor(flow_x, dtype=torch.float)
    data['flow'].y = torch.tensor(y)
    data['flow'].num_nodes = n_flows
    data['host'].x = torch.tensor(host_x, dtype=torch.float)
    data['host'].num_nodes = n_hosts
    flows = np.arange(n_flows)
    data['host', 'sends', 'flow'].edge_index = torch.tensor(
        np.stack([np.concatenate([src, dst]), np.concatenate([flows, flows])]), dtype=torch.long)
    return data


def create_neighborloader(data):
    # create a boolean tensor size of data['flow'].x with 1 for all nodes as train_mask
    data['flow'].train_mask = torch.ones(data['flow'].x.size(0), dtype=torch.bool)

    loader = NeighborLoader(data, shuffle=False, num_neighbors={key: [-1] * 2 for key in data.edge_types},
                            directed=True, batch_size=SUBGRAPH_SIZE * BATCH_SIZE,
                            input_nodes=['flow', data['flow'].train_mask])

    return loader


def main():
    data = build_graph()
    loader = create_neighborloader(data)
    model = HeteroSAGE(8, 40, 32, 2)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(8):
        model.train()
        seen, total = set(), 0.0
        for batch in loader:
            bs = batch['flow'].batch_size
            seen.update(batch['flow'].n_id[:bs].tolist())
            out = model(batch['flow'].x, batch['host'].x, batch['host', 'sends', 'flow'].edge_index)[:bs]
            loss = F.cross_entropy(out, batch['flow'].y[:bs])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / len(loader):.4f}, "
              f"distinct seed flows per epoch: {len(seen)} of {data['flow'].num_nodes}")

    model.eval()
    with torch.no_grad():
        pred = model(data['flow'].x, data['host'].x, data['host', 'sends', 'flow'].edge_index).argmax(1)
    acc = (pred == data['flow'].y).float().mean().item()
    majority = max(data['flow'].y.float().mean().item(), 1 - data['flow'].y.float().mean().item())
    print(f"full-graph accuracy {acc:.3f} (majority class {majority:.3f})")


main()
