"""Multi-label article tagger: targets are built in a collate_fn as F.one_hot(tag_ids).sum(0).clamp(max=1) (int64 multi-hot), and BCEWithLogitsLoss(pos_weight=...) made from NumPy tag counts rejects the Long targets
source: https://github.com/allenai/deep_qa/pull/234
reported-error: mask of dtype uint8 had to be cast to float32 before it could be used in the loss
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 39
root-cause: line 20
expect: DG007
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

N_TAGS = 6
rng = np.random.default_rng(0)
articles = [(rng.normal(size=20).astype(np.float32), rng.choice(N_TAGS, rng.integers(1, 4), replace=False).tolist()) for _ in range(80)]


def multi_hot(tag_ids):
    return F.one_hot(torch.tensor(tag_ids), N_TAGS).sum(0).clamp(max=1)  # root-cause


def collate(batch):
    feats = torch.from_numpy(np.stack([f for f, _ in batch]))
    targets = torch.stack([multi_hot(tags) for _, tags in batch])
    return feats, targets


def make_criterion(samples):
    counts = np.zeros(N_TAGS, dtype=np.float32)
    for _, tags in samples:
        counts[tags] += 1
    pos_weight = torch.from_numpy((len(samples) - counts) / np.maximum(counts, 1))
    return nn.BCEWithLogitsLoss(pos_weight=pos_weight)


def train_one_epoch(model, loader, criterion, opt):
    for feats, targets in loader:
        loss = criterion(model(feats), targets)  # fails-here
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, N_TAGS))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
loader = DataLoader(articles, batch_size=16, shuffle=True, collate_fn=collate)
print("loss", train_one_epoch(model, loader, make_criterion(articles), opt))
