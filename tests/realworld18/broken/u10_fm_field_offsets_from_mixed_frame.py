"""Factorization machine on a Criteo-like pandas frame: FieldEncoder.transform() maps categories with Series.map and fills unseen values with 0, which leaves those columns float64; on the validation frame (one unseen site) the field matrix handed to the Embedding is float64
source: https://github.com/rixwew/pytorch-fm/issues/30
reported-error: RuntimeError: Expected tensor for argument #1 'indices' ... (while checking arguments for embedding) in y = model(fields) when training a FM on a custom frame
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.DoubleTensor instead (while checking arguments for embedding) at line 35
root-cause: line 23
expect: DG005
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


class FieldEncoder:
    def fit(self, df, cols):
        self.cols = cols
        self.vocab = {c: {v: i for i, v in enumerate(sorted(df[c].unique()))} for c in cols}
        self.field_dims = np.array([len(self.vocab[c]) for c in cols])
        self.offsets = np.array((0, *np.cumsum(self.field_dims)[:-1]))
        return self

    def transform(self, df):
        coded = pd.DataFrame({c: df[c].map(self.vocab[c]).fillna(0) for c in self.cols})  # root-cause
        return coded[self.cols].to_numpy() + self.offsets


class FactorizationMachine(nn.Module):
    def __init__(self, n_features, k=8):
        super().__init__()
        self.linear = nn.Embedding(n_features, 1)
        self.v = nn.Embedding(n_features, k)
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, fields):
        lin = self.linear(fields).sum(1).squeeze(-1) + self.bias  # fails-here
        e = self.v(fields)
        inter = 0.5 * ((e.sum(1) ** 2) - (e ** 2).sum(1)).sum(1)
        return lin + inter


rng = np.random.default_rng(0)
df = pd.DataFrame({
    "site": rng.choice(["a.com", "b.com", "c.org"], 400),
    "device": rng.choice(["ios", "android", "web"], 400),
    "hour": rng.integers(0, 24, 400),
    "price_bucket": rng.choice([0.5, 1.0, 2.5, 5.0], 400),
})
y = torch.tensor((rng.random(400) < 0.25).astype(np.float32))
train_df, val_df = df.iloc[:320], df.iloc[320:].copy()
val_df.iloc[0, 0] = "d.net"
enc = FieldEncoder().fit(train_df, ["site", "device", "hour", "price_bucket"])
fields = torch.from_numpy(enc.transform(train_df))
val_fields = torch.from_numpy(enc.transform(val_df))
model = FactorizationMachine(int(enc.field_dims.sum()))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    loss = nn.functional.binary_cross_entropy_with_logits(model(fields), y[:320])
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        val_loss = nn.functional.binary_cross_entropy_with_logits(model(val_fields), y[320:])
    print("epoch", epoch, "loss", round(loss.item(), 4), "val", round(val_loss.item(), 4))
