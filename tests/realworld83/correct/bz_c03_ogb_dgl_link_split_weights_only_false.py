"""The OGB ogbl-collab-style link prediction of bz03 with the fix of PR #502: get_edge_split reads the packaged train/valid/test.pt (dicts of NumPy arrays) with torch.load(..., weights_only=False) and keeps weights_only=True for the tensor-only split_dict.pt shortcut, so the split loads, replace_numpy_with_torchtensor turns the int64 edge arrays into index tensors and the GCN link predictor trains; the CSV edges read with pandas and the torch.save of NumPy dicts are kept
source: https://github.com/snap-stanford/ogb/pull/502
reported-error: (none filed; the fixed situation of bz03)
outcome: ok
root-cause: -
expect: none
"""
import os
import os.path as osp
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)
NUM_NODES = 200


def package_dataset(root):
    """What the OGB maintainers ship: raw/edge.csv.gz plus split/time/*.pt holding dicts of NumPy arrays."""
    os.makedirs(osp.join(root, "raw"))
    os.makedirs(osp.join(root, "split", "time"))
    community = rng.integers(0, 4, NUM_NODES)
    src = rng.integers(0, NUM_NODES, 3000)
    dst = np.where(rng.random(3000) < 0.8,
                   [rng.choice(np.flatnonzero(community == community[s])) for s in src],
                   rng.integers(0, NUM_NODES, 3000))
    edges = np.stack([src, dst], axis=1)
    year = rng.integers(2000, 2020, len(edges))
    pd.DataFrame(edges).to_csv(osp.join(root, "raw", "edge.csv.gz"), header=False, index=False, compression="gzip")
    pd.DataFrame({"num_nodes": [NUM_NODES]}).to_csv(osp.join(root, "raw", "num-node-list.csv.gz"),
                                                    header=False, index=False, compression="gzip")
    for split, mask in (("train", year < 2017), ("valid", year == 2018), ("test", year == 2019)):
        entry = {"edge": edges[mask], "weight": np.ones(mask.sum()), "year": year[mask]}
        if split != "train":
            entry["edge_neg"] = rng.integers(0, NUM_NODES, (mask.sum(), 2))
        torch.save(entry, osp.join(root, "split", "time", f"{split}.pt"))


def replace_numpy_with_torchtensor(obj):
    if isinstance(obj, dict):
        return {key: replace_numpy_with_torchtensor(value) for key, value in obj.items()}
    return torch.from_numpy(obj) if isinstance(obj, np.ndarray) else obj


class DglLinkPropPredDataset:
    def __init__(self, root):
        self.root = root
        raw_dir = osp.join(root, "raw")
        edge = pd.read_csv(osp.join(raw_dir, "edge.csv.gz"), compression="gzip", header=None).values.T.astype(np.int64)
        num_nodes = pd.read_csv(osp.join(raw_dir, "num-node-list.csv.gz"), compression="gzip", header=None).values[0][0]
        edge = np.concatenate([edge, edge[::-1]], axis=1)  # add_inverse_edge
        self.graph = {"edge_index": torch.from_numpy(edge), "num_nodes": int(num_nodes)}

    def get_edge_split(self, split_type="time"):
        path = osp.join(self.root, "split", split_type)
        if os.path.isfile(os.path.join(path, "split_dict.pt")):
            return torch.load(os.path.join(path, "split_dict.pt"), weights_only=True)
        train = replace_numpy_with_torchtensor(torch.load(osp.join(path, "train.pt"), weights_only=False))
        valid = replace_numpy_with_torchtensor(torch.load(osp.join(path, "valid.pt"), weights_only=False))
        test = replace_numpy_with_torchtensor(torch.load(osp.join(path, "test.pt"), weights_only=False))
        return {"train": train, "valid": valid, "test": test}

    def __getitem__(self, idx):
        assert idx == 0, "This dataset has only one graph"
        return self.graph


class GCN(nn.Module):
    def __init__(self, num_nodes, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(num_nodes, hidden)
        self.lin = nn.Linear(hidden, hidden)

    def forward(self, edge_index, num_nodes):
        h = self.emb.weight
        deg = torch.bincount(edge_index[1], minlength=num_nodes).clamp(min=1).unsqueeze(1)
        agg = torch.zeros_like(h).index_add_(0, edge_index[1], h[edge_index[0]]) / deg
        return torch.relu(self.lin(agg + h))


class LinkPredictor(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, h_i, h_j):
        return self.mlp(h_i * h_j).squeeze(-1)


with tempfile.TemporaryDirectory() as tmp:
    root = osp.join(tmp, "ogbl_collab")
    package_dataset(root)

    dataset = DglLinkPropPredDataset(root)
    graph = dataset[0]
    split_edge = dataset.get_edge_split()

    model, predictor = GCN(graph["num_nodes"]), LinkPredictor()
    opt = torch.optim.Adam(list(model.parameters()) + list(predictor.parameters()), lr=0.01)
    pos_train = split_edge["train"]["edge"]
    for epoch in range(20):
        h = model(graph["edge_index"], graph["num_nodes"])
        neg = torch.randint(0, graph["num_nodes"], pos_train.shape)
        pos_out = predictor(h[pos_train[:, 0]], h[pos_train[:, 1]])
        neg_out = predictor(h[neg[:, 0]], h[neg[:, 1]])
        loss = -torch.log(torch.sigmoid(pos_out) + 1e-15).mean() - torch.log(1 - torch.sigmoid(neg_out) + 1e-15).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        h = model(graph["edge_index"], graph["num_nodes"])
        pos = predictor(h[split_edge["test"]["edge"][:, 0]], h[split_edge["test"]["edge"][:, 1]])
        neg = predictor(h[split_edge["test"]["edge_neg"][:, 0]], h[split_edge["test"]["edge_neg"][:, 1]])
    print(f"loss {loss.item():.4f}, test pos>neg {(pos.unsqueeze(1) > neg.unsqueeze(0)).float().mean().item():.3f}")
