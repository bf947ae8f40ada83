"""Click-through-rate model on a pandas log: the integer 'clicked' column becomes the target of nn.BCELoss after a sigmoid head
source: https://github.com/pytorch/pytorch/issues/842
reported-error: BCELoss doesn't accept LongTensor targets (unlike NLLLoss)
outcome: RuntimeError: Found dtype Long but expected Float at line 54
root-cause: line 45
expect: DG007
"""
import argparse

import numpy as np
import pandas as pd
import torch
from torch import nn, tensor


def fake_click_log(n=256, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "user_id": rng.integers(0, 50, n),
        "ad_id": rng.integers(0, 20, n),
        "hour": rng.integers(0, 24, n),
        "position": rng.integers(1, 5, n),
    })
    df["clicked"] = (rng.random(n) < 0.2 + 0.1 * (df["position"] == 1)).astype(int)
    return df


class CTRModel(nn.Module):
    def __init__(self, n_users=50, n_ads=20, dim=8):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.ad = nn.Embedding(n_ads, dim)
        self.dense = nn.Linear(2, dim)
        self.out = nn.Sequential(nn.Linear(3 * dim, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())

    def forward(self, user, ad, dense):
        return self.out(torch.cat([self.user(user), self.ad(ad), self.dense(dense)], dim=1)).squeeze(1)


def main(args):
    df = fake_click_log()
    user = tensor(df["user_id"].values)
    ad = tensor(df["ad_id"].values)
    dense = tensor(df[["hour", "position"]].values / np.array([23.0, 4.0]), dtype=torch.float32)
    y = torch.from_numpy(df["clicked"].values)  # root-cause
    model = CTRModel()
    criterion = nn.BCELoss()
    opt = torch.optim.Adagrad(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        perm = torch.randperm(len(df))
        for i in range(0, len(df), args.batch_size):
            idx = perm[i:i + args.batch_size]
            p = model(user[idx], ad[idx], dense[idx])
            loss = criterion(p, y[idx])  # fails-here
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} logloss {loss.item():.4f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=0.05)
    main(ap.parse_args())
