"""An OGB ogbn-arxiv-style node classification run (re-typed: PygNodePropPredDataset over a PyG-style InMemoryDataset: process() reads the raw edge/node-feat/node-label CSVs with pandas, collates the graph into (data, slices) and torch.saves it to processed/geometric_data_processed.pt, then __init__ reads it back with a plain torch.load): the processed file holds the pickled Data object, which the weights-only default refuses, so the dataset cannot even be constructed
source: https://github.com/snap-stanford/ogb/pull/494
reported-error: "dataset = PygNodePropPredDataset(f'ogbn-{dataset_name}', root=root) ... self.data, self.slices = torch.load(self.processed_paths[0]) ... _pickle.UnpicklingError: Weights only load failed ... WeightsUnpickler error: Unsupported global: GLOBAL torch_geometric.data.data.DataEdgeAttr was not an allowed global by default"
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.Data was not an allowed global by default. ... at line 56
root-cause: line 56
expect: DG011
"""
import os
import os.path as osp
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)


def write_raw(raw_dir, num_nodes=300, num_classes=4, dim=16):
    os.makedirs(raw_dir)
    y = rng.integers(0, num_classes, num_nodes)
    centers = rng.normal(0, 1, (num_classes, dim))
    feat = centers[y] + rng.normal(0, 1.0, (num_nodes, dim))
    src = rng.integers(0, num_nodes, 1500)
    dst = np.array([rng.choice(np.flatnonzero(y == y[s])) if rng.random() < 0.7 else rng.integers(num_nodes) for s in src])
    pd.DataFrame(np.stack([src, dst], 1)).to_csv(osp.join(raw_dir, "edge.csv.gz"), header=False, index=False, compression="gzip")
    pd.DataFrame(feat).to_csv(osp.join(raw_dir, "node-feat.csv.gz"), header=False, index=False, compression="gzip")
    pd.DataFrame(y).to_csv(osp.join(raw_dir, "node-label.csv.gz"), header=False, index=False, compression="gzip")
    pd.DataFrame([num_nodes]).to_csv(osp.join(raw_dir, "num-node-list.csv.gz"), header=False, index=False, compression="gzip")


class Data:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)


def read_graph_pyg(raw_dir):
    """ogb.io.read_graph_raw + read_graph_pyg: CSV columns to NumPy, then to tensors."""
    edge = pd.read_csv(osp.join(raw_dir, "edge.csv.gz"), compression="gzip", header=None).values.T.astype(np.int64)
    node_feat = pd.read_csv(osp.join(raw_dir, "node-feat.csv.gz"), compression="gzip", header=None).values.astype(np.float32)
    num_nodes = pd.read_csv(osp.join(raw_dir, "num-node-list.csv.gz"), compression="gzip", header=None).values[0][0]
    edge = np.concatenate([edge, edge[::-1]], axis=1)
    return Data(edge_index=torch.from_numpy(edge), x=torch.from_numpy(node_feat), num_nodes=int(num_nodes))


class PygNodePropPredDataset:
    def __init__(self, root, task_type="multiclass classification"):
        self.root, self.task_type = root, task_type
        self.processed_paths = [osp.join(root, "processed", "geometric_data_processed.pt")]
        if not osp.exists(self.processed_paths[0]):  # InMemoryDataset._process
            os.makedirs(osp.join(root, "processed"), exist_ok=True)
            self.process()
        self.data, self.slices = torch.load(self.processed_paths[0])  # root-cause  # fails-here

    def process(self):
        raw_dir = osp.join(self.root, "raw")
        data = read_graph_pyg(raw_dir)
        node_label = pd.read_csv(osp.join(raw_dir, "node-label.csv.gz"), compression="gzip", header=None).values
        if "classification" in self.task_type and self.task_type != "binary classification":
            data.y = torch.from_numpy(node_label).to(torch.long)
        else:
            data.y = torch.from_numpy(node_label).to(torch.float32)
        slices = {"x": torch.tensor([0, data.num_nodes]), "edge_index": torch.tensor([0, data.edge_index.shape[1]])}
        torch.save((data, slices), self.processed_paths[0])  # root-cause-alt

    def get_idx_split(self):
        perm = torch.from_numpy(rng.permutation(self.data.num_nodes))
        n = self.data.num_nodes
        return {"train": perm[: n // 2], "valid": perm[n // 2: 3 * n // 4], "test": perm[3 * n // 4:]}

    def __getitem__(self, idx):
        return self.data


class GCN(nn.Module):
    def __init__(self, dim_in, hidden, num_classes):
        super().__init__()
        self.lin1, self.lin2 = nn.Linear(dim_in, hidden), nn.Linear(hidden, num_classes)

    def propagate(self, x, edge_index):
        deg = torch.bincount(edge_index[1], minlength=x.shape[0]).clamp(min=1).unsqueeze(1)
        return (torch.zeros_like(x).index_add_(0, edge_index[1], x[edge_index[0]]) + x) / (deg + 1)

    def forward(self, x, edge_index):
        h = F.relu(self.lin1(self.propagate(x, edge_index)))
        return self.lin2(self.propagate(h, edge_index))


with tempfile.TemporaryDirectory() as tmp:
    root = osp.join(tmp, "ogbn_arxiv")
    write_raw(osp.join(root, "raw"))
    dataset = PygNodePropPredDataset(root)
    split_idx = dataset.get_idx_split()
    data = dataset[0]
    model = GCN(data.x.shape[1], 32, 4)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(50):
        out = model(data.x, data.edge_index)
        loss = F.cross_entropy(out[split_idx["train"]], data.y.squeeze(1)[split_idx["train"]])
        opt.zero_grad()
        loss.backward()
        opt.step()
    pred = model(data.x, data.edge_index).argmax(1)
    acc = (pred[split_idx["test"]] == data.y.squeeze(1)[split_idx["test"]]).float().mean().item()
    print(f"loss {loss.item():.4f}, test acc {acc:.3f}")
