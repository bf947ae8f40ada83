"""Steam video-game matrix factorisation where df_to_tensor takes the dtype per column: the user and game ids become torch.long indices for the embeddings, the hours played float32 targets
source: https://github.com/Kukiezi/Steam-Video-Games-Recommendation-Engine/blob/90158d878a03fb8464bf2b202eeb8d22007ac04a/model2/matrix_factor.py
reported-error: none (fixed version: ids converted with dtype=torch.long)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F


class LabelEncoder:  # stand-in for sklearn.preprocessing.LabelEncoder
    def fit_transform(self, values):
        self.classes_, codes = np.unique(values, return_inverse=True)
        return codes


class MF(nn.Module):
    def __init__(self, num_users, num_items, emb_size=100):
        super(MF, self).__init__()
        self.user_emb = nn.Embedding(num_users, emb_size)
        self.item_emb = nn.Embedding(num_items, emb_size)
        self.user_emb.weight.data.uniform_(0, 0.5)
        self.item_emb.weight.data.uniform_(0, 0.5)

    def forward(self, u, v):
        u = self.user_emb(u)
        v = self.item_emb(v)
        return (u * v).sum(1)


def df_to_tensor(frame, dtype=torch.float32):
    return torch.tensor(frame.values, dtype=dtype)


def train_epocs(model, df_train, epochs=3, lr=0.01, wd=0.0):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=wd)
    model.train()
    for i in range(epochs):
        users = df_to_tensor(df_train.user_id, torch.long)
        items = df_to_tensor(df_train.game_id, torch.long)
        ratings = df_to_tensor(df_train.hours)
        y_hat = model(users, items)
        loss = F.mse_loss(y_hat, ratings)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {i} train loss {loss.item():.3f}")


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"user": rng.integers(1000, 1030, 200), "game": rng.choice(["Dota 2", "Portal", "Terraria", "Rust", "Fallout 4"], 200),
                       "hours": np.round(rng.gamma(2.0, 3.0, 200), 1)})
    df["user_id"] = LabelEncoder().fit_transform(df.user.values)
    df["game_id"] = LabelEncoder().fit_transform(df.game.values)
    train_df = df.sample(frac=0.8, random_state=0)
    model = MF(df.user_id.nunique(), df.game_id.nunique(), emb_size=16)
    train_epocs(model, train_df)
