"""Tabular ResNet whose Dataset still keeps the integer-valued numerical columns (counts, years) as int64, but the model's forward stacks them and converts with .float() before the numerical projection
source: https://github.com/OpenTabular/DeepTab/issues/150
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(0)
df = pd.DataFrame({"n_rooms": rng.integers(1, 8, 96), "year_built": rng.integers(1950, 2020, 96), "district": rng.integers(0, 5, 96), "y": rng.normal(size=96)})
ds = TensorDataset(
    torch.tensor(df[["n_rooms", "year_built"]].to_numpy()),
    torch.tensor(df["district"].to_numpy()),
    torch.tensor(df["y"].to_numpy(), dtype=torch.float32),
)


class ResNetTab(nn.Module):
    def __init__(self, n_num=2, n_cat=5, d=16):
        super().__init__()
        self.norm = nn.BatchNorm1d(n_num)
        self.num_proj = nn.Linear(n_num, d)
        self.cat_emb = nn.Embedding(n_cat, d)
        self.head = nn.Linear(d, 1)

    def forward(self, num_features, cat_features):
        h = self.num_proj(self.norm(num_features.float())) + self.cat_emb(cat_features)
        return self.head(torch.relu(h)).squeeze(-1)


model = ResNetTab()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for num, cat, y in DataLoader(ds, batch_size=32, shuffle=True):
    loss = nn.functional.mse_loss(model(num, cat), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item(), "num dtype", num.dtype)
