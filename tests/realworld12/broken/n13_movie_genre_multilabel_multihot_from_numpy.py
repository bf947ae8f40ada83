"""Multi-label genre tagger whose encode_genres() helper builds the multi-hot target matrix with np.zeros(..., dtype=np.int64) from the pipe-separated genre column of a DataFrame; the model ends in a sigmoid and nn.BCELoss refuses the int64 targets
source: https://github.com/pytorch/pytorch/issues/3608
reported-error: RuntimeError: Expected object of type Variable[torch.FloatTensor] but found type Variable[torch.LongTensor] for argument #1 'target' (binary_cross_entropy with a LongTensor target)
outcome: RuntimeError: Found dtype Long but expected Float at line 49
root-cause: line 24
expect: DG007
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

GENRES = ["action", "comedy", "drama", "horror", "romance"]


def make_movies(n=64, seed=2):
    rng = np.random.default_rng(seed)
    genres = ["|".join(sorted(set(rng.choice(GENRES, rng.integers(1, 3))))) for _ in range(n)]
    return pd.DataFrame({"title_len": rng.integers(5, 40, n), "year": rng.integers(1970, 2024, n),
                         "runtime": rng.normal(105, 15, n).round(), "genres": genres})


def encode_genres(column):
    target = np.zeros((len(column), len(GENRES)), dtype=np.int64)  # root-cause
    for row, value in enumerate(column):
        for g in value.split("|"):
            target[row, GENRES.index(g)] = 1
    return torch.from_numpy(target)


def encode_features(df):
    num = df[["title_len", "year", "runtime"]].to_numpy(dtype=np.float32)
    num = (num - num.mean(0)) / num.std(0)
    return torch.from_numpy(num)


class Tagger(nn.Module):
    def __init__(self, d_in, n_out):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, n_out), nn.Sigmoid())

    def forward(self, x):
        return self.body(x)


def train_epoch(model, x, y, criterion, opt, bs=16):
    for s in range(0, len(x), bs):
        probs = model(x[s:s + bs])
        loss = criterion(probs, y[s:s + bs])  # fails-here
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    df = make_movies()
    x, y = encode_features(df), encode_genres(df["genres"])
    model = Tagger(x.shape[1], len(GENRES))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(2):
        print(f"epoch {epoch}: bce {train_epoch(model, x, y, nn.BCELoss(), opt):.4f}")
