"""MovieLens-style CTR model: build_features() left-merges the item catalogue onto the rating log, which introduces NaN for unknown items and silently turns the encoded item id column into float64; the batches index nn.Embedding with float ids
source: https://github.com/GitHub-HongweiZhang/prediction-flow/issues/16
reported-error: RuntimeError: Expected tensor for argument #1 'indices' to have scalar type Long; but got torch.cuda.IntTensor instead (while checking arguments for embedding), running the movielens-1m notebook
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.DoubleTensor instead (while checking arguments for embedding) at line 41
root-cause: line 25
expect: DG005
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_logs(seed=0):
    rng = np.random.default_rng(seed)
    ratings = pd.DataFrame({"user_id": rng.integers(1, 60, 600), "movie_id": rng.integers(1, 130, 600)})
    ratings["label"] = (rng.random(600) < 0.4).astype(np.float32)
    movies = pd.DataFrame({"movie_id": np.arange(1, 121), "genre": rng.integers(0, 8, 120)})
    movies["item_idx"] = np.arange(len(movies))
    return ratings, movies


def build_features(ratings, movies):
    df = ratings.merge(movies, on="movie_id", how="left")  # root-cause
    df["item_idx"] = df["item_idx"].fillna(len(movies))
    df["genre"] = df["genre"].fillna(8)
    df["user_idx"] = df["user_id"].astype("category").cat.codes.astype(np.int64)
    return df


class CTRModel(nn.Module):
    def __init__(self, n_users, n_items, n_genres, dim=8):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim)
        self.genre_emb = nn.Embedding(n_genres, dim)
        self.mlp = nn.Sequential(nn.Linear(3 * dim, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, user, item, genre):
        x = torch.cat([self.user_emb(user), self.item_emb(item), self.genre_emb(genre)], -1)  # fails-here
        return self.mlp(x).squeeze(-1)


def fit(model, loader, epochs=2):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        for user, item, genre, y in loader:
            loss = loss_fn(model(user, item, genre), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print("epoch", epoch, "loss", round(loss.item(), 4))


ratings, movies = make_logs()
df = build_features(ratings, movies)
ds = TensorDataset(
    torch.tensor(df["user_idx"].values),
    torch.tensor(df["item_idx"].values),
    torch.tensor(df["genre"].values),
    torch.tensor(df["label"].values),
)
model = CTRModel(df["user_idx"].max() + 1, len(movies) + 1, 9)
fit(model, DataLoader(ds, batch_size=64, shuffle=True))
