"""Tabular model on integer-coded categorical columns (no embedding, codes fed directly)."""
import random

import torch
import torch.nn as nn

random.seed(0)
COLUMNS = ["color", "size", "shape", "brand"]


def read_rows(n=120):
    rows = []
    for _ in range(n):
        rows.append({c: random.randint(0, 5) for c in COLUMNS} | {"label": random.randint(0, 1)})
    return rows


def to_tensors(rows):
    feats = torch.tensor([[r[c] for c in COLUMNS] for r in rows])
    labels = torch.tensor([r["label"] for r in rows])
    return feats, labels


feats, labels = to_tensors(read_rows())
clf = nn.Sequential(nn.Linear(len(COLUMNS), 16), nn.ReLU(), nn.Linear(16, 2))
optim = torch.optim.Adam(clf.parameters(), lr=1e-2)

for epoch in range(10):
    perm = torch.randperm(len(labels))
    for start in range(0, len(labels), 40):
        idx = perm[start:start + 40]
        logits = clf(feats[idx])  # expect: DG005
        loss = nn.functional.cross_entropy(logits, labels[idx])
        optim.zero_grad()
        loss.backward()
        optim.step()
    print(f"epoch {epoch:02d} loss {loss.item():.4f}")
