"""Matrix-factorisation recommender whose interactions DataFrame is left-merged onto the user table; users without clicks get NaN, so item_id becomes a float64 column that fillna keeps, and the ids tensor built from df[["user_id", "item_id"]].values reaches nn.Embedding as DoubleTensor indices
source: https://github.com/SpaceLearner/SessionRec-pytorch/issues/2
reported-error: type error inside the item embedding lookup (feat = self.embeddings(iid))
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.DoubleTensor instead (while checking arguments for embedding) at line 37
root-cause: line 25
expect: DG005
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


def load_interactions(seed=1):
    rng = np.random.default_rng(seed)
    clicks = pd.DataFrame({"user_id": rng.integers(0, 20, 200), "item_id": rng.integers(0, 40, 200),
                           "rating": rng.integers(1, 6, 200).astype(np.float32)})
    users = pd.DataFrame({"user_id": np.arange(25), "segment": rng.choice(["new", "loyal"], 25)})
    df = users.merge(clicks, on="user_id", how="left")
    df["segment"] = df["segment"].astype("category")
    return df.fillna({"item_id": 0, "rating": 3.0})


def to_tensors(df):
    ids = torch.tensor(df[["user_id", "item_id"]].values)  # root-cause
    ratings = torch.tensor(df["rating"].values)
    return ids, ratings


class MF(nn.Module):
    def __init__(self, n_users, n_items, dim=8):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)

    def forward(self, ids):
        u = self.user(ids[:, 0])  # fails-here
        v = self.item(ids[:, 1])
        return (u * v).sum(-1)


if __name__ == "__main__":
    df = load_interactions()
    ids, ratings = to_tensors(df)
    model = MF(25, 40)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        loss = nn.functional.mse_loss(model(ids), ratings)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch}: mse {loss.item():.3f}")
