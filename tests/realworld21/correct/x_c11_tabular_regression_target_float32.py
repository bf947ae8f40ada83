"""Tabular regression data module that standardises the features in NumPy float64 on purpose and converts them to float32 afterwards, and takes the target with to_numpy(np.float32), so MSELoss compares float32 with float32
source: https://github.com/pytorch-tabular/pytorch_tabular/pull/533
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


# ---- pytorch_tabular/tabular_datamodule.py
class TabularDataset(Dataset):
    def __init__(self, data, continuous_cols, target):
        cont = data[continuous_cols].to_numpy()
        cont = (cont - cont.mean(0)) / cont.std(0)
        self.continuous_X = cont.astype(np.float32)
        self.y = data[target].to_numpy(np.float32).reshape(-1, 1)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"continuous": torch.from_numpy(self.continuous_X[i]), "target": torch.from_numpy(self.y[i])}


# ---- pytorch_tabular/models/category_embedding.py
class CategoryEmbeddingModel(nn.Module):
    def __init__(self, n_cont, layers=(32, 16)):
        super().__init__()
        dims, mods = (n_cont,) + layers, []
        for a, b in zip(dims[:-1], dims[1:]):
            mods += [nn.Linear(a, b), nn.ReLU()]
        self.backbone = nn.Sequential(*mods)
        self.head = nn.Linear(layers[-1], 1)

    def forward(self, batch):
        return self.head(self.backbone(batch["continuous"]))


def fit(model, loader, epochs=3):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.MSELoss()
    for epoch in range(epochs):
        for batch in loader:
            y_hat = model(batch)
            loss = loss_fn(y_hat, batch["target"])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}, loss dtype {loss.dtype}")


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    df = pd.DataFrame(rng.normal(size=(200, 4)), columns=["age", "income", "tenure", "visits"])
    df["spend"] = 2 * df["income"] - df["tenure"] + rng.normal(scale=0.1, size=200)
    torch.manual_seed(0)
    ds = TabularDataset(df, ["age", "income", "tenure", "visits"], "spend")
    fit(CategoryEmbeddingModel(4), DataLoader(ds, batch_size=32, shuffle=True))
