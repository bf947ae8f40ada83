"""Tabular Trompt-style model on a pandas DataFrame: the TensorFrame materialisation keeps the numerical columns in their pandas dtype (float64), and the column encoder's LayerNorm has float32 weights
source: https://github.com/pyg-team/pytorch-frame/pull/135
reported-error: RuntimeError: expected scalar type Double but found Float (return torch.layer_norm(input, normalized_shape, weight, bias, eps, torch.backends.cudnn.enabled))
outcome: RuntimeError: mixed dtype (CPU): all inputs must share same datatype. at line 48
root-cause: line 24
expect: DG004
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


def materialize(df: pd.DataFrame, num_cols, target_col) -> TensorFrame:
    values = df[num_cols].to_numpy()
    feat = torch.tensor(values)  # root-cause
    y = torch.tensor(df[target_col].to_numpy(), dtype=torch.long)
    return TensorFrame(feat, y)


class LinearEncoder(nn.Module):
    def __init__(self, num_cols, channels):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_cols, channels) * 0.1)
        self.bias = nn.Parameter(torch.zeros(num_cols, channels))

    def forward(self, x):
        return x.unsqueeze(-1) * self.weight + self.bias


class Trompt(nn.Module):
    def __init__(self, num_cols, channels=8, out_channels=2):
        super().__init__()
        self.encoder = LinearEncoder(num_cols, channels)
        self.norm = nn.LayerNorm(channels)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(channels, out_channels))

    def forward(self, tf: TensorFrame):
        x = self.encoder(tf.feat_numerical)
        x = self.norm(x)  # fails-here
        return self.head(x.mean(dim=1))


rng = np.random.default_rng(0)
df = pd.DataFrame({"age": rng.integers(18, 80, 64).astype(float), "income": rng.lognormal(10, 1, 64), "score": rng.random(64)})
df["label"] = (df["income"] > df["income"].median()).astype(int)
num_cols = ["age", "income", "score"]
df[num_cols] = (df[num_cols] - df[num_cols].mean()) / df[num_cols].std()

tf = materialize(df, num_cols, "label")
model = Trompt(num_cols=len(num_cols))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    loss = nn.functional.cross_entropy(model(tf), tf.y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, round(loss.item(), 4))
