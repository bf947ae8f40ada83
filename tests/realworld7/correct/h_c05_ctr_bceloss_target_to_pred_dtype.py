"""Click-through-rate model on a pandas log whose integer 'clicked' target is converted to the prediction's dtype inside the loss function
source: https://github.com/pytorch/pytorch/issues/842
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
from torch import nn

rng = np.random.default_rng(0)
df = pd.DataFrame({"ad_id": rng.integers(0, 20, 128), "position": rng.integers(1, 5, 128)})
df["clicked"] = (rng.random(128) < 0.3).astype(int)
ad = torch.tensor(df["ad_id"].values)
pos = torch.tensor(df[["position"]].values, dtype=torch.float32) / 4
y = torch.from_numpy(df["clicked"].values)


class CTR(nn.Module):
    def __init__(self):
        super().__init__()
        self.ad = nn.Embedding(20, 8)
        self.out = nn.Sequential(nn.Linear(9, 1), nn.Sigmoid())

    def forward(self, ad, pos):
        return self.out(torch.cat([self.ad(ad), pos], 1)).squeeze(1)


def logloss(p, target, criterion=nn.BCELoss()):
    return criterion(p, target.to(p.dtype))


model = CTR()
opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
for epoch in range(3):
    loss = logloss(model(ad, pos), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 4))
