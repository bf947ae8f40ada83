"""Multi-label article tagger whose collate_fn builds float multi-hot targets (F.one_hot(...).sum(0).clamp(max=1).float()) and whose BCEWithLogitsLoss pos_weight comes from float32 NumPy tag counts
source: https://github.com/allenai/deep_qa/pull/234
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

N_TAGS = 6
rng = np.random.default_rng(0)
articles = [(rng.normal(size=20).astype(np.float32), rng.choice(N_TAGS, rng.integers(1, 4), replace=False).tolist()) for _ in range(80)]


def collate(batch):
    feats = torch.from_numpy(np.stack([f for f, _ in batch]))
    targets = torch.stack([F.one_hot(torch.tensor(tags), N_TAGS).sum(0).clamp(max=1) for _, tags in batch])
    return feats, targets.float()


counts = np.zeros(N_TAGS, dtype=np.float32)
for _, tags in articles:
    counts[tags] += 1
criterion = nn.BCEWithLogitsLoss(pos_weight=torch.from_numpy((len(articles) - counts) / np.maximum(counts, 1)))
model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, N_TAGS))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for feats, targets in DataLoader(articles, batch_size=16, shuffle=True, collate_fn=collate):
    loss = criterion(model(feats), targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
