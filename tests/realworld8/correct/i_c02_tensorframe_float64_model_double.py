"""Tabular Trompt-style model kept in double precision on purpose: the TensorFrame keeps the pandas float64 columns and the model is converted with .double() right after construction
source: https://github.com/pyg-team/pytorch-frame/pull/135
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch
import torch.nn as nn


@dataclass
class TensorFrame:
    feat_numerical: torch.Tensor
    y: torch.Tensor


def materialize(df, num_cols, target_col):
    return TensorFrame(torch.tensor(df[num_cols].to_numpy()), torch.tensor(df[target_col].to_numpy(), dtype=torch.long))


class Trompt(nn.Module):
    def __init__(self, num_cols, channels=8, out_channels=2):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_cols, channels) * 0.1)
        self.bias = nn.Parameter(torch.zeros(num_cols, channels))
        self.norm = nn.LayerNorm(channels)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(channels, out_channels))

    def forward(self, tf):
        x = tf.feat_numerical.unsqueeze(-1) * self.weight + self.bias
        return self.head(self.norm(x).mean(dim=1))


rng = np.random.default_rng(0)
df = pd.DataFrame({"age": rng.integers(18, 80, 64).astype(float), "income": rng.lognormal(10, 1, 64), "score": rng.random(64)})
df["label"] = (df["income"] > df["income"].median()).astype(int)
num_cols = ["age", "income", "score"]
df[num_cols] = (df[num_cols] - df[num_cols].mean()) / df[num_cols].std()

tf = materialize(df, num_cols, "label")
model = Trompt(len(num_cols)).double()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    loss = nn.functional.cross_entropy(model(tf), tf.y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.dtype, round(loss.item(), 4))
