"""Fixed pytorch#116598: one Embedding per categorical column applied to its own int64 column, outputs concatenated
source: https://github.com/pytorch/pytorch/issues/116598
reported-error: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding)
outcome: ok
root-cause: none
expect: none
"""
import numpy as np
import pandas as pd
import torch
from torch import nn
from torch.utils.data import TensorDataset, DataLoader

rng = np.random.default_rng(1)
df = pd.DataFrame({c: rng.integers(0, 4, 200) for c in ["workclass", "education", "race", "income"]})
x = torch.tensor(df[["workclass", "education", "race"]].values)
y = torch.tensor(df["income"].values, dtype=torch.float32)
train_dataloader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)


class incomemodel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embeddings = nn.ModuleList([nn.Embedding(num_embeddings=4, embedding_dim=8) for _ in range(3)])
        self.stacked_layer = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.BatchNorm1d(64), nn.Linear(64, 1))

    def forward(self, x):
        x = torch.cat([emb(x[:, i]) for i, emb in enumerate(self.embeddings)], dim=1)
        return self.stacked_layer(x)


model = incomemodel()
loss_fn = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(params=model.parameters(), lr=0.001)
for X, Y in train_dataloader:
    loss = loss_fn(model(X).squeeze(1), Y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
