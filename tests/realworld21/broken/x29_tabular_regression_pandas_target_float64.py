"""Tabular regression with a pytorch_tabular-like data module: the continuous features are explicitly converted to float32 after scaling, but the regression target is taken from the DataFrame with .values (float64) and wrapped with torch.from_numpy; MSELoss then silently computes a float64 loss
source: https://github.com/pytorch-tabular/pytorch_tabular/pull/533
reported-error: numpy defaults to numpy.float64 sometimes when they should be numpy.float32 (training failed on MPS devices; make tensor dtypes np.float32)
outcome: ok (silent: the MSE at line 50 is computed in float64 against float32 predictions, printed as "loss dtype torch.float64"; the backward graph runs partly in double)
root-cause: line 21
expect: DG008
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
        self.y = data[target].values.reshape(-1, 1)  # root-cause

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
            loss = loss_fn(y_hat, batch["target"])  # fails-here
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
