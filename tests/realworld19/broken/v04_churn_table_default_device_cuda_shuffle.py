"""Customer-churn MLP on a pandas table: the preprocessing helper makes every tensor live on the GPU with torch.set_default_device('cuda') so the TensorDataset is already on the device; DataLoader(shuffle=True) then draws torch.randperm on the cuda default device with the sampler's CPU generator
source: https://github.com/pytorch/pytorch/issues/98792
reported-error: RuntimeError: Expected a 'cpu' device type for generator but found 'cuda' (DataLoader with tensors living on CUDA; the shuffle generator device never matches)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm runs on the cuda default device with a CPU generator; not run on a GPU for this set) at line 58; on CPU: ok
root-cause: line 32
expect: DG003
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_frame(n=600, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "tenure": rng.integers(1, 72, n),
        "monthly": rng.uniform(20, 120, n).round(2),
        "contract": rng.choice(["month", "year", "two_year"], n),
        "support_calls": rng.poisson(2, n),
    })
    logit = -0.04 * df["tenure"] + 0.02 * df["monthly"] + 0.3 * df["support_calls"] - 1.0
    df["churn"] = (rng.uniform(size=n) < 1 / (1 + np.exp(-logit))).astype(np.int64)
    return df


class Preprocessor:
    def __init__(self, device):
        self.device = device
        if device.type == "cuda":
            torch.set_default_device(device)  # root-cause

    def fit_transform(self, df):
        num = df[["tenure", "monthly", "support_calls"]].astype(np.float32)
        num = (num - num.mean()) / num.std()
        cats = pd.get_dummies(df["contract"], dtype=np.float32)
        x = np.hstack([num.to_numpy(), cats.to_numpy()])
        return TensorDataset(torch.tensor(x, dtype=torch.float32, device=self.device),
                             torch.tensor(df["churn"].to_numpy(), dtype=torch.float32, device=self.device))


class ChurnNet(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.mlp(x).squeeze(-1)


def fit(model, dataset, epochs=3):
    loader = DataLoader(dataset, batch_size=64, shuffle=True)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        total = 0.0
        for xb, yb in loader:  # fails-here
            loss = loss_fn(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
        print(f"epoch {epoch}: loss {total / len(dataset):.4f}")


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    prep = Preprocessor(device)
    ds = prep.fit_transform(make_frame())
    model = ChurnNet(ds.tensors[0].shape[1]).to(device)
    fit(model, ds)
