"""Tabular regression Trainer whose init_runtime() calls torch.set_default_device("cuda") whenever a GPU exists "so every tensor lands on the GPU"; the DataLoader(shuffle=True) built later in fit() draws torch.randperm on cuda with the RandomSampler's CPU generator
source: https://github.com/pytorch/pytorch/issues/61457
reported-error: RuntimeError: Expected a 'cuda:0' generator device but found 'cpu' (after torch.set_default_device('cuda:0') before iterating the DataLoader)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm allocates on the cuda default device with a CPU generator; not run on a GPU here) at line 34; on CPU: ok
root-cause: line 18
expect: DG003
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.preprocessing import MinMaxScaler
from torch.utils.data import DataLoader, TensorDataset


def init_runtime():
    if torch.cuda.is_available():
        torch.set_default_device("cuda")  # root-cause
        return torch.device("cuda")
    return torch.device("cpu")


class Trainer:
    def __init__(self, config):
        self.config = config
        self.device = init_runtime()
        self.model = nn.Sequential(nn.Linear(config["n_features"], 32), nn.ReLU(), nn.Linear(32, 1)).to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config["lr"])

    def fit(self, X, y):
        ds = TensorDataset(torch.from_numpy(X), torch.from_numpy(y))
        loader = DataLoader(ds, batch_size=self.config["batch_size"], shuffle=True)
        for epoch in range(self.config["epochs"]):
            for xb, yb in loader:  # fails-here
                xb, yb = xb.to(self.device), yb.to(self.device)
                loss = nn.functional.mse_loss(self.model(xb), yb)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print("epoch", epoch, "loss", round(loss.item(), 4))


rng = np.random.default_rng(0)
df = pd.DataFrame(rng.normal(size=(256, 5)), columns=[f"f{i}" for i in range(5)])
df["target"] = df.sum(axis=1) + rng.normal(scale=0.1, size=256)
X = MinMaxScaler().fit_transform(df.drop(columns="target")).astype(np.float32)
y = df[["target"]].to_numpy(dtype=np.float32)
Trainer({"n_features": 5, "lr": 1e-3, "batch_size": 32, "epochs": 2}).fit(X, y)
