"""Multi-task tabular net (price regression + "sold fast" classification) on a pandas frame: the Dataset scales the price column with np.log1p and returns it as float64, so the summed multi-task loss is computed in float64 without any error
source: https://runebook.dev/zh/docs/pytorch/generated/torch.nn.mseloss/torch.nn.MSELoss
reported-error: MSELoss common pitfalls: shape mismatch and data type errors between input and target (the target must have the same dtype as the prediction)
outcome: ok (silent: the MSE term at line 56 mixes the float32 prediction with the float64 price target, so "loss dtype torch.float64" is printed and the multi-task loss graph runs in double)
root-cause: line 32
expect: DG008
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.compose import ColumnTransformer
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from torch.utils.data import DataLoader, Dataset


def load_frame(n=300, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "sqft": rng.normal(1500, 400, n), "rooms": rng.integers(1, 6, n),
        "city": rng.choice(["north", "south", "east"], n), "age": rng.integers(0, 80, n),
    })
    df["price"] = 100 * df["sqft"] + 5000 * df["rooms"] + rng.normal(0, 1e4, n)
    df["sold_fast"] = (rng.random(n) < 0.4).astype(np.float32)
    return df


class HouseDataset(Dataset):
    def __init__(self, df, pre):
        self.X = pre.transform(df).astype(np.float32)
        self.price = np.log1p(df["price"].to_numpy())  # root-cause
        self.fast = df["sold_fast"].to_numpy()

    def __len__(self):
        return len(self.X)

    def __getitem__(self, i):
        return self.X[i], self.price[i], self.fast[i]


class MultiTaskNet(nn.Module):
    def __init__(self, d_in):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU())
        self.price_head = nn.Linear(32, 1)
        self.fast_head = nn.Linear(32, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.price_head(h).squeeze(-1), self.fast_head(h).squeeze(-1)


def multitask_loss(outputs, price, fast, w=(1.0, 0.5)):
    price_pred, fast_logit = outputs
    l_price = F.mse_loss(price_pred, price)  # fails-here
    l_fast = F.binary_cross_entropy_with_logits(fast_logit, fast)
    return w[0] * l_price + w[1] * l_fast


df = load_frame()
pre = ColumnTransformer([("num", StandardScaler(), ["sqft", "rooms", "age"]), ("cat", OneHotEncoder(sparse_output=False), ["city"])])
pre.fit(df)
loader = DataLoader(HouseDataset(df, pre), batch_size=32, shuffle=True)
model = MultiTaskNet(6)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    for xb, price, fast in loader:
        loss = multitask_loss(model(xb), price, fast)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "loss", round(loss.item(), 4))
print("loss dtype", loss.dtype)
