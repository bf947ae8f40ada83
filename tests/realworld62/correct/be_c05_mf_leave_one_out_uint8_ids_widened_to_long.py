"""The leave-one-out MF evaluation of be05 (pytorch/pytorch #17346) with the held-out ids widened before use: they are still kept compactly as a uint8 NumPy array (the 200-item catalogue fits in a byte), but torch.from_numpy(compact).long() makes them int64 indices, so scores[item] picks the held-out item's score and HR@10 rises from chance (untrained) to well above it (trained); list indexing of the seen items and torch.randint negatives (int64) are kept
source: https://github.com/pytorch/pytorch/issues/17346
reported-error: (none filed; the fixed situation of be05)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)
N_USERS, N_ITEMS, DIM = 150, 200, 16

# implicit feedback: each user has a taste cluster, interacts with ~20 items mostly from it
clusters = rng.integers(0, 5, N_USERS)
rows = []
for u in range(N_USERS):
    pool = np.arange(clusters[u] * 40, clusters[u] * 40 + 40)
    items = rng.permutation(np.concatenate([rng.choice(pool, 18, replace=False), rng.choice(N_ITEMS, 2)]))
    rows += [(u, int(i), t) for t, i in enumerate(items)]
ratings = pd.DataFrame(rows, columns=["user", "item", "ts"])

# leave-one-out split: the latest interaction of each user is held out
last = ratings.groupby("user")["ts"].transform("max") == ratings["ts"]
train, test = ratings[~last], ratings[last].sort_values("user")
test_users = torch.from_numpy(test["user"].to_numpy().copy())
compact_items = test["item"].to_numpy().astype(np.uint8)  # 1 byte per held-out id on disk
test_items = torch.from_numpy(compact_items).long()
seen = [set() for _ in range(N_USERS)]
for u, i in zip(train["user"], train["item"]):
    seen[u].add(i)


class MF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(N_USERS, DIM)
        self.item = nn.Embedding(N_ITEMS, DIM)
        nn.init.normal_(self.user.weight, std=0.1)
        nn.init.normal_(self.item.weight, std=0.1)

    def forward(self, users, items):
        return (self.user(users) * self.item(items)).sum(-1)

    def full_scores(self, user):
        return self.item.weight @ self.user.weight[user]


def hit_rate(model, k=10):
    hits = 0
    with torch.no_grad():
        for u, item in zip(test_users, test_items):
            scores = model.full_scores(u)
            scores[list(seen[int(u)])] = -1e9
            target = scores[item]
            rank = (scores > target).sum().item()
            hits += rank < k
    return hits / len(test_users)


model = MF()
print(f"untrained model: HR@10 = {hit_rate(model):.3f}")
users = torch.from_numpy(train["user"].to_numpy().copy())
items = torch.from_numpy(train["item"].to_numpy().copy())
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(150):
    neg = torch.randint(0, N_ITEMS, items.shape)
    loss = -F.logsigmoid(model(users, items) - model(users, neg)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"BPR loss {loss.item():.3f}")
hr = hit_rate(model)
print(f"trained model:   HR@10 = {hr:.3f}")
assert 0.2 < hr < 0.9
