"""Retrieval two-tower model trained "in bf16 to halve memory": make_model() casts the towers with .to(torch.bfloat16) and AdamW updates the bf16 weights directly at lr=1e-4; most updates round away, so the towers barely change while the loop runs normally
source: https://github.com/NVIDIA/apex/pull/1731
reported-error: FusedAdam ignores master_weights=True for bfloat16 parameters (no fp32 master copy), so bfloat16 weights are updated in place
outcome: ok (silent: after 20 AdamW steps at lr=1e-4 fewer than half of the bfloat16 weights changed at all, printed as "weights changed: K/N"; the updates applied at line 44 round away)
root-cause: line 27
expect: DG013
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F


class Tower(nn.Module):
    def __init__(self, n_ids, d=32):
        super().__init__()
        self.emb = nn.Embedding(n_ids, d)
        self.mlp = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))

    def forward(self, ids):
        return F.normalize(self.mlp(self.emb(ids)), dim=-1)


def make_model(n_users, n_items):
    towers = nn.ModuleDict({"user": Tower(n_users), "item": Tower(n_items)})
    return towers.to(torch.bfloat16)  # root-cause


rng = np.random.default_rng(0)
log = pd.DataFrame({"user": rng.integers(0, 200, 2000), "item": rng.integers(0, 500, 2000)})
torch.manual_seed(0)
model = make_model(200, 500)
before = [p.detach().clone() for p in model.parameters()]
opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.0)
for step in range(20):
    batch = log.sample(128, random_state=step)
    u = model["user"](torch.tensor(batch["user"].to_numpy()))
    v = model["item"](torch.tensor(batch["item"].to_numpy()))
    logits = (u @ v.t()).float() / 0.1
    loss = F.cross_entropy(logits, torch.arange(len(batch)))
    opt.zero_grad()
    loss.backward()
    opt.step()  # fails-here
changed = sum(int((p.detach() != b).sum()) for p, b in zip(model.parameters(), before))
total = sum(p.numel() for p in model.parameters())
print(f"loss {loss.item():.4f}; weights changed: {changed}/{total}")
