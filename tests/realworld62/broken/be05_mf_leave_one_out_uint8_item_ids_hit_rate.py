"""A matrix-factorisation recommender evaluated leave-one-out (HR@10): the held-out item ids are stored compactly as a uint8 NumPy array (a 200-item catalogue fits in a byte) and read back with torch.from_numpy; scores[item] with a uint8 tensor is a byte mask, not an index, so the held-out item's "score" is the whole score row (or nothing), no item ranks above it and HR@10 is a perfect 1.000, silently
source: https://github.com/pytorch/pytorch/issues/17346
reported-error: "torch.Tensor(dtype = torch.uint8) is not OK for index_select?" number[0, 0, p[0]] with p = torch.arange(10, dtype=torch.uint8) gives tensor([], size=(0, 11)) instead of an element (maintainer: "uint8 is used for masking. int64 is for indexing.")
outcome: ok (silent: the held-out ids are used as byte masks in scores[item] at line 58 (they were made uint8 on line 31), so the untrained and the trained model both report HR@10 = 1.000, with no warning; with int64 ids the same run gives about 0.04 untrained and 0.39 trained)
root-cause: line 31
expect: DG005
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
test_items = torch.from_numpy(test["item"].to_numpy().astype(np.uint8))  # root-cause
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
            target = scores[item]  # fails-here
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
print(f"trained model:   HR@10 = {hit_rate(model):.3f}")
