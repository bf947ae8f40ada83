"""Node-regression GNN trainer (house-price-per-parcel graph) in pure torch: node labels come from a pandas column via torch.tensor(df["price"].values), which keeps float64, and the MSE/RMSE evaluation mixes them with the float32 predictions
source: https://github.com/awslabs/graphstorm/pull/253
reported-error: Fix the case when dtype of predict and label does not match in regression tasks (compute_mse and compute_rmse crash or misbehave when the dtypes differ)
outcome: ok (silent: the MSE at line 46 is computed in float64 against float32 predictions, printed as "loss dtype torch.float64"; the backward graph runs in double)
root-cause: line 22
expect: DG008
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


def load_parcels(n=120, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"area": rng.uniform(50, 300, n), "rooms": rng.integers(1, 6, n), "age": rng.uniform(0, 80, n)})
    df["price"] = 2.0 * df["area"] + 15 * df["rooms"] - 0.5 * df["age"] + rng.normal(0, 10, n)
    src = rng.integers(0, n, 4 * n)
    dst = (src + rng.integers(1, 5, 4 * n)) % n
    feats = df[["area", "rooms", "age"]].to_numpy(np.float32)
    feats = (feats - feats.mean(0)) / feats.std(0)
    labels = torch.tensor(((df["price"] - df["price"].mean()) / df["price"].std()).values)  # root-cause
    return torch.from_numpy(feats), torch.tensor(np.stack([src, dst])), labels


class SAGE(nn.Module):
    def __init__(self, cin, hidden):
        super().__init__()
        self.l1, self.l2 = nn.Linear(2 * cin, hidden), nn.Linear(2 * hidden, hidden)
        self.decoder = nn.Linear(hidden, 1)

    @staticmethod
    def aggregate(h, edge_index):
        src, dst = edge_index
        out = torch.zeros_like(h).index_add_(0, dst, h[src])
        deg = torch.bincount(dst, minlength=h.size(0)).clamp(min=1)[:, None]
        return torch.cat([h, out / deg], 1)

    def forward(self, x, edge_index):
        h = torch.relu(self.l1(self.aggregate(x, edge_index)))
        h = torch.relu(self.l2(self.aggregate(h, edge_index)))
        return self.decoder(h).squeeze(-1)


def compute_mse(pred, labels):
    return nn.functional.mse_loss(pred, labels)  # fails-here


if __name__ == "__main__":
    x, edge_index, labels = load_parcels()
    model = SAGE(3, 32)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(20):
        loss = compute_mse(model(x, edge_index), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"rmse {loss.sqrt().item():.4f}, loss dtype {loss.dtype}")
