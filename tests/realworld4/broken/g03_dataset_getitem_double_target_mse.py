"""Sensor regression Dataset: features are cast to float32 but __getitem__ hands back the target column as a float64 tensor, so MSELoss silently runs in double
source: https://openillumi.com/en/en-pytorch-double-expected-float-fix
reported-error: RuntimeError: Found dtype Double but expected Float
outcome: ok (silent: MSELoss promotes to float64, every printed loss is torch.float64 and backward passes a double gradient into the float32 model; older torch raised the reported error in backward at line 52)
root-cause: line 34
expect: DG008
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

CONFIG = {"batch_size": 32, "lr": 1e-3, "epochs": 3, "hidden": 32}


def make_frame(n=400, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(rng.normal(size=(n, 6)), columns=[f"s{i}" for i in range(6)])
    df["target"] = df.sum(axis=1) * 0.5 + rng.normal(scale=0.1, size=n)
    return df


class mydataset(Dataset):
    def __init__(self, df):
        self.x = df.drop(columns=["target"]).to_numpy(dtype=np.float32)
        self.y = df["target"].to_numpy()

    def __len__(self):
        return len(self.x)

    def __getitem__(self, index):
        x = torch.from_numpy(self.x[index])
        y = torch.tensor([self.y[index]])  # root-cause
        return x, y


class Regressor(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


def train_one_epoch(model, loader, criterion, optimizer):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()  # fails-here
        optimizer.step()
    return loss


def main():
    df = make_frame()
    loader = DataLoader(mydataset(df), batch_size=CONFIG["batch_size"], shuffle=True)
    model = Regressor(6, CONFIG["hidden"])
    criterion = nn.MSELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=CONFIG["lr"])
    for epoch in range(CONFIG["epochs"]):
        loss = train_one_epoch(model, loader, criterion, optimizer)
        print(f"epoch {epoch}: loss={loss.item():.4f} dtype={loss.dtype}")


if __name__ == "__main__":
    main()
