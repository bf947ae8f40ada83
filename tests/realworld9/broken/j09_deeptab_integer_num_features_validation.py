"""Mambular/DeepTab-style tabular ResNet: the preprocessor keeps integer-valued numerical columns (counts, years) as int64, the collate stacks them with torch.tensor, and the first Linear of the numerical block gets Long features in training_step/validation_step
source: https://github.com/OpenTabular/DeepTab/issues/150
reported-error: RuntimeError: mat1 and mat2 must have the same dtype (resnet, in TaskModel.validation_step: preds = self(num_features=num_features, cat_features=cat_features))
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float at line 55
root-cause: line 29
expect: DG005
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def load_frame(n=96, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "n_rooms": rng.integers(1, 8, n),
            "year_built": rng.integers(1950, 2020, n),
            "district": rng.integers(0, 5, n),
            "y": rng.normal(size=n),
        }
    )


class TabularDataset(Dataset):
    def __init__(self, df, num_cols, cat_cols, target):
        self.num = [torch.tensor(df[c].to_numpy()) for c in num_cols]  # root-cause
        self.cat = [torch.tensor(df[c].to_numpy(), dtype=torch.long) for c in cat_cols]
        self.y = torch.tensor(df[target].to_numpy(), dtype=torch.float32)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return [c[i] for c in self.cat], [n[i] for n in self.num], self.y[i]


def collate(batch):
    cats = [torch.stack([b[0][j] for b in batch]) for j in range(len(batch[0][0]))]
    nums = [torch.stack([b[1][j] for b in batch]) for j in range(len(batch[0][1]))]
    return cats, nums, torch.stack([b[2] for b in batch])


class ResNetTab(nn.Module):
    def __init__(self, n_num, cat_cards, d=16):
        super().__init__()
        self.num_proj = nn.Linear(n_num, d)
        self.cat_emb = nn.ModuleList([nn.Embedding(c, d) for c in cat_cards])
        self.block = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, d), nn.ReLU())
        self.head = nn.Linear(d, 1)

    def forward(self, num_features, cat_features):
        h = self.num_proj(torch.stack(num_features, dim=1))  # fails-here
        for emb, c in zip(self.cat_emb, cat_features):
            h = h + emb(c)
        return self.head(h + self.block(h)).squeeze(-1)


class TaskModel(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.loss_fct = nn.MSELoss()

    def validation_step(self, batch, batch_idx):
        cat_features, num_features, labels = batch
        preds = self.model(num_features=num_features, cat_features=cat_features)
        return self.loss_fct(preds, labels)


if __name__ == "__main__":
    df = load_frame()
    ds = TabularDataset(df, ["n_rooms", "year_built"], ["district"], "y")
    task = TaskModel(ResNetTab(n_num=2, cat_cards=[5]))
    for i, batch in enumerate(DataLoader(ds, batch_size=32, collate_fn=collate)):
        print("val_loss", task.validation_step(batch, i).item())
