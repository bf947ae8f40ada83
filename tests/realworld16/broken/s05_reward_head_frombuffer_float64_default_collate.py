"""Reward-model head trained on cached sentence embeddings: the cache is raw bytes decoded with np.frombuffer(..., dtype=np.float64), the Dataset returns dicts of NumPy values and torch.utils.data.default_collate turns them into float64 tensors for the float32 value head
source: https://github.com/huggingface/trl/pull/4778
reported-error: none quoted (the PR sets the trainer's default dtype to float32)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 37
root-cause: line 21
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, default_collate


def build_cache(n, dim, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, dim)).tobytes(), rng.integers(0, 2, size=n)


class PreferenceDataset(Dataset):
    def __init__(self, raw, prefs, dim):
        self.embeddings = np.frombuffer(raw, dtype=np.float64).reshape(-1, dim)  # root-cause
        self.prefs = prefs.astype(np.float32)

    def __len__(self):
        return len(self.prefs)

    def __getitem__(self, i):
        return {"emb": self.embeddings[i], "pref": self.prefs[i]}


class ValueHead(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.summary = nn.Linear(dim, 1)

    def forward(self, emb):
        return self.summary(emb).squeeze(-1)  # fails-here


def get_loaders(raw, prefs, dim):
    return DataLoader(PreferenceDataset(raw, prefs, dim), batch_size=16, shuffle=True, collate_fn=default_collate)


def train_one_epoch(head, loader, opt):
    for batch in loader:
        loss = nn.functional.binary_cross_entropy_with_logits(head(batch["emb"]), batch["pref"])
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


raw, prefs = build_cache(96, 32)
head = ValueHead(32)
opt = torch.optim.AdamW(head.parameters(), lr=1e-3)
print("loss", train_one_epoch(head, get_loaders(raw, prefs, 32), opt))
