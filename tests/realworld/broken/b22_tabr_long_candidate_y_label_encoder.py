"""TabR-style retrieval model: class labels of the context rows (int64) go into the label_encoder nn.Linear
source: https://github.com/dholzmueller/pytabkit/pull/14
reported-error: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float at line 32
root-cause: line 42
expect: DG005
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F


class TabrModel(nn.Module):
    def __init__(self, n_num_features, d_main=32, n_classes=None, context_size=4):
        super().__init__()
        self.context_size = context_size
        self.linear = nn.Linear(n_num_features, d_main)
        self.K = nn.Linear(d_main, d_main)
        self.label_encoder = nn.Linear(1, d_main)
        self.T = nn.Sequential(nn.Linear(d_main, d_main), nn.ReLU(), nn.Linear(d_main, d_main, bias=False))
        self.head = nn.Linear(d_main, n_classes)

    def forward(self, x_num, candidate_x_num, candidate_y):
        x = self.linear(x_num)
        k = self.K(x)
        candidate_k = self.K(self.linear(candidate_x_num))
        similarities = -torch.cdist(k, candidate_k) ** 2
        context_idx = similarities.topk(self.context_size, dim=-1).indices
        probs = F.softmax(similarities.gather(-1, context_idx), dim=-1)
        context_y_emb = self.label_encoder(candidate_y[context_idx][..., None])  # fails-here
        values = context_y_emb + self.T(k[:, None] - candidate_k[context_idx])
        context_x = (probs[:, None] @ values).squeeze(1)
        return self.head(x + context_x)


rng = np.random.default_rng(0)
df = pd.DataFrame(rng.normal(size=(120, 6)).astype(np.float32), columns=list("abcdef"))
df["target"] = rng.integers(0, 3, size=120)
X = torch.as_tensor(df[list("abcdef")].to_numpy())
Y = torch.as_tensor(df["target"].to_numpy())  # root-cause

model = TabrModel(n_num_features=6, n_classes=3)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
train_idx = torch.arange(100)
for start in range(0, 100, 20):
    batch_idx = train_idx[start:start + 20]
    mask = torch.ones(100, dtype=torch.bool)
    mask[batch_idx] = False
    optimizer.zero_grad()
    logits = model(X[batch_idx], X[:100][mask], Y[:100][mask])
    loss = F.cross_entropy(logits, Y[batch_idx])
    loss.backward()
    optimizer.step()
