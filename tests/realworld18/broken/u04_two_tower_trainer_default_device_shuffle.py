"""Two-tower recommender Trainer whose Runtime helper calls torch.set_default_device(device) "so every tensor lands on the accelerator"; the DataLoader(shuffle=True) built in fit() then draws torch.randperm on that default device with the RandomSampler's CPU generator
source: https://github.com/pytorch/pytorch/issues/115287
reported-error: Expected a 'mps:0' generator device but found 'cpu' using shuffle=True on DataLoader (same bug as #110820 with a non-CPU default device)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm allocates on the cuda default device with a CPU generator; verified on an H200 with torch 2.11.0+cu130) at line 55; on CPU: ok
root-cause: line 19
expect: DG003
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Runtime:
    def __init__(self):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        if self.device.type == "cuda":
            torch.set_default_device(self.device)  # root-cause


class InteractionDataset(Dataset):
    def __init__(self, df):
        self.users = df["user_idx"].to_numpy(dtype=np.int64)
        self.items = df["item_idx"].to_numpy(dtype=np.int64)
        self.labels = df["clicked"].to_numpy(dtype=np.float32)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.users[i], self.items[i], self.labels[i]


class TwoTower(nn.Module):
    def __init__(self, n_users, n_items, dim=16):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)

    def forward(self, u, i):
        return (self.user(u) * self.item(i)).sum(-1)


class Trainer:
    def __init__(self, n_users, n_items):
        self.rt = Runtime()
        self.model = TwoTower(n_users, n_items).to(self.rt.device)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-2)
        self.loss_fn = nn.BCEWithLogitsLoss()

    def fit(self, df, epochs=2):
        loader = DataLoader(InteractionDataset(df), batch_size=64, shuffle=True)
        for epoch in range(epochs):
            for u, i, y in loader:  # fails-here
                u, i, y = u.to(self.rt.device), i.to(self.rt.device), y.to(self.rt.device)
                loss = self.loss_fn(self.model(u, i), y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
            print("epoch", epoch, "loss", round(loss.item(), 4))


rng = np.random.default_rng(0)
log = pd.DataFrame({"user_id": rng.integers(1000, 1050, 512), "item_id": rng.integers(7000, 7100, 512)})
log["clicked"] = (rng.random(512) < 0.3).astype(int)
log["user_idx"] = log["user_id"].astype("category").cat.codes.astype(np.int64)
log["item_idx"] = log["item_id"].astype("category").cat.codes.astype(np.int64)
Trainer(log["user_idx"].max() + 1, log["item_idx"].max() + 1).fit(log)
