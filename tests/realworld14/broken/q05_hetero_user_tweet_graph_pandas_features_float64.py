"""Heterogeneous user/tweet graph classifier with hand-written mean-aggregation message passing in a torch.nn.ModuleDict of per-node-type encoders; HeteroGraph.from_frames() builds node features with torch.from_numpy(df.values) so the user and tweet features are float64 and the first float32 encoder fails
source: https://github.com/pyg-team/pytorch_geometric/issues/7690
reported-error: RuntimeError: mat1 and mat2 must have the same dtype
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 37
root-cause: line 21
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


class HeteroGraph:
    def __init__(self, x, edge_index, y):
        self.x, self.edge_index, self.y = x, edge_index, y

    @classmethod
    def from_frames(cls, users, tweets, writes):
        x = {
            "user": torch.from_numpy(users[["followers", "age_days", "verified"]].values),  # root-cause
            "tweet": torch.from_numpy(tweets[["len", "n_links", "n_tags"]].to_numpy(dtype=np.float32)),
        }
        edge_index = torch.as_tensor(writes[["user", "tweet"]].to_numpy().T, dtype=torch.long)
        y = torch.as_tensor(tweets["label"].to_numpy(), dtype=torch.long)
        return cls(x, edge_index, y)


class HeteroSAGE(nn.Module):
    def __init__(self, in_dims, hidden=16, n_classes=2):
        super().__init__()
        self.encoders = nn.ModuleDict({k: nn.Linear(d, hidden) for k, d in in_dims.items()})
        self.update = nn.Linear(2 * hidden, hidden)
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, g):
        h = {k: torch.relu(enc(g.x[k])) for k, enc in self.encoders.items()}  # fails-here
        src, dst = g.edge_index
        agg = torch.zeros_like(h["tweet"]).index_add_(0, dst, h["user"][src])
        deg = torch.bincount(dst, minlength=agg.shape[0]).clamp(min=1).unsqueeze(1)
        h_tweet = torch.relu(self.update(torch.cat([h["tweet"], agg / deg], dim=1)))
        return self.head(h_tweet)


rng = np.random.default_rng(0)
users = pd.DataFrame({"followers": rng.integers(0, 5000, 20), "age_days": rng.random(20) * 900,
                      "verified": rng.integers(0, 2, 20)})
tweets = pd.DataFrame({"len": rng.integers(5, 280, 50), "n_links": rng.integers(0, 3, 50),
                       "n_tags": rng.integers(0, 5, 50), "label": rng.integers(0, 2, 50)})
writes = pd.DataFrame({"user": rng.integers(0, 20, 50), "tweet": np.arange(50)})
g = HeteroGraph.from_frames(users, tweets, writes)
model = HeteroSAGE({"user": 3, "tweet": 3})
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(5):
    loss = nn.functional.cross_entropy(model(g), g.y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
