"""Matrix-factorisation recommender whose left merge onto the user table still produces NaN item ids, but to_tensors() fills them and casts the id columns with .astype(np.int32) before building the index tensor; nn.Embedding accepts int32 indices and the ratings are float32
source: https://github.com/SpaceLearner/SessionRec-pytorch/issues/2
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


def load_interactions(seed=1):
    rng = np.random.default_rng(seed)
    clicks = pd.DataFrame({"user_id": rng.integers(0, 20, 200), "item_id": rng.integers(0, 40, 200),
                           "rating": rng.integers(1, 6, 200).astype(np.float32)})
    users = pd.DataFrame({"user_id": np.arange(25)})
    return users.merge(clicks, on="user_id", how="left").fillna({"item_id": 0, "rating": 3.0})


def to_tensors(df):
    ids = torch.from_numpy(df[["user_id", "item_id"]].to_numpy().astype(np.int32))
    ratings = torch.from_numpy(df["rating"].to_numpy(dtype=np.float32))
    return ids, ratings


class MF(nn.Module):
    def __init__(self, n_users, n_items, dim=8):
        super().__init__()
        self.user, self.item = nn.Embedding(n_users, dim), nn.Embedding(n_items, dim)

    def forward(self, ids):
        return (self.user(ids[:, 0]) * self.item(ids[:, 1])).sum(-1)


if __name__ == "__main__":
    ids, ratings = to_tensors(load_interactions())
    model = MF(25, 40)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        loss = nn.functional.mse_loss(model(ids), ratings)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch}: mse {loss.item():.3f} ({loss.dtype})")
