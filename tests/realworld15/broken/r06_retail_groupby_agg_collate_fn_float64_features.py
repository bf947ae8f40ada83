"""Retail basket model: transactions read with pd.read_csv from an in-memory io.StringIO, aggregated per customer with df.groupby(...).agg; a custom collate_fn stacks the per-customer NumPy rows with torch.tensor(np.stack(...)), keeping float64, which the float32 scorer rejects
source: https://github.com/goodok/fastai_sparse/pull/13
reported-error: features were float64 and had to be converted to float32 for the network
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 52
root-cause: line 41
expect: DG004
"""
import io

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

rng = np.random.default_rng(0)
lines = ["customer,amount,items,returned"]
for _ in range(300):
    lines.append(f"c{rng.integers(0, 40)},{rng.gamma(2.0, 15.0):.2f},{rng.integers(1, 9)},{rng.integers(0, 2)}")
CSV = io.StringIO("\n".join(lines))


class CustomerDataset(Dataset):
    def __init__(self, frame):
        agg = frame.groupby("customer").agg(
            spend=("amount", "sum"), mean_items=("items", "mean"), visits=("amount", "size"), return_rate=("returned", "mean")
        )
        agg["spend"] = np.log1p(agg["spend"])
        self.features = agg[["spend", "mean_items", "visits"]].to_numpy()
        self.labels = (agg["return_rate"] > 0.5).to_numpy().astype(np.float32)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.features[i], self.labels[i]


def collate_customers(batch):
    feats, labels = zip(*batch)
    x = torch.tensor(np.stack(feats))  # root-cause
    y = torch.tensor(np.array(labels))
    return x, y


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, x):
        return self.mlp(x).squeeze(-1)  # fails-here


ds = CustomerDataset(pd.read_csv(CSV))
loader = DataLoader(ds, batch_size=8, shuffle=True, collate_fn=collate_customers)
model = Scorer()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for x, y in loader:
    loss = nn.functional.binary_cross_entropy_with_logits(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("trained on", len(ds), "customers")
