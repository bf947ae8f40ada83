"""Heterogeneous user/tweet graph classifier where HeteroGraph.from_frames() converts every node-feature frame with to_numpy(dtype=np.float32) and keeps integer edge indices as int64 for index_add_/bincount
source: https://github.com/pyg-team/pytorch_geometric/issues/7690
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


class HeteroGraph:
    def __init__(self, x, edge_index, y):
        self.x, self.edge_index, self.y = x, edge_index, y

    @classmethod
    def from_frames(cls, frames, feature_cols, writes, labels):
        x = {k: torch.from_numpy(frames[k][feature_cols[k]].to_numpy(dtype=np.float32)) for k in frames}
        edge_index = torch.from_numpy(writes[["user", "tweet"]].to_numpy().T.copy())
        return cls(x, edge_index, torch.from_numpy(labels.to_numpy()))


class HeteroSAGE(nn.Module):
    def __init__(self, in_dims, hidden=16, n_classes=2):
        super().__init__()
        self.encoders = nn.ModuleDict({k: nn.Linear(d, hidden) for k, d in in_dims.items()})
        self.update = nn.Linear(2 * hidden, hidden)
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, g):
        h = {k: torch.relu(enc(g.x[k])) for k, enc in self.encoders.items()}
        src, dst = g.edge_index
        agg = torch.zeros_like(h["tweet"]).index_add_(0, dst, h["user"][src])
        deg = torch.bincount(dst, minlength=agg.shape[0]).clamp(min=1).unsqueeze(1)
        return self.head(torch.relu(self.update(torch.cat([h["tweet"], agg / deg], dim=1))))


rng = np.random.default_rng(0)
users = pd.DataFrame({"followers": rng.integers(0, 5000, 20), "age_days": rng.random(20) * 900,
                      "verified": rng.integers(0, 2, 20)})
tweets = pd.DataFrame({"len": rng.integers(5, 280, 50), "n_links": rng.integers(0, 3, 50),
                       "n_tags": rng.integers(0, 5, 50), "label": rng.integers(0, 2, 50)})
writes = pd.DataFrame({"user": rng.integers(0, 20, 50), "tweet": np.arange(50)})
cols = {"user": ["followers", "age_days", "verified"], "tweet": ["len", "n_links", "n_tags"]}
g = HeteroGraph.from_frames({"user": users, "tweet": tweets}, cols, writes, tweets["label"])
model = HeteroSAGE({"user": 3, "tweet": 3})
opt = torch.optim.Adam(model.parameters(), lr=0.01)
model.train()
for epoch in range(5):
    loss = nn.functional.cross_entropy(model(g), g.y)
    opt.zero_grad()
    loss.backward()
    opt.step()
model.eval()
with torch.no_grad():
    acc = (model(g).argmax(1) == g.y).float().mean().item()
print(f"loss {loss.item():.4f} acc {acc:.2f}")
