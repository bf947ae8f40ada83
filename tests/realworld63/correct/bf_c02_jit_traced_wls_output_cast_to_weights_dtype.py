"""The traced weighted-least-squares export of bf02 (pytorch/pytorch #116612) with the workaround the issue gives: forward casts the Linear output to the weights' dtype before multiplying, so the reloaded TorchScript module differentiates consistently and every torch.autograd.grad call succeeds; the float64 sample weights from torch.from_numpy of the pandas column are kept
source: https://github.com/pytorch/pytorch/issues/116612
reported-error: (none filed; the fixed situation of bf02)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch

torch.manual_seed(0)
rng = np.random.default_rng(0)
WORK = tempfile.mkdtemp()


class WLS(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.model = torch.nn.Linear(2, 1)

    def forward(self, x, weights):
        return torch.sum(self.model(x).to(weights.dtype) * weights)


# survey data: two covariates, a response and inverse-variance sample weights
n = 256
df = pd.DataFrame({"x1": rng.normal(size=n), "x2": rng.normal(size=n)})
df["y"] = 1.5 * df["x1"] - 0.7 * df["x2"] + rng.normal(scale=0.3, size=n)
df["w"] = 1.0 / rng.uniform(0.5, 2.0, size=n)

X = torch.tensor(df[["x1", "x2"]].to_numpy(), dtype=torch.float32)
y = torch.tensor(df[["y"]].to_numpy(), dtype=torch.float32)
w = torch.from_numpy(df[["w"]].to_numpy())

wls = WLS()
opt = torch.optim.Adam(wls.parameters(), lr=0.05)
for step in range(200):
    resid = wls.model(X) - y
    loss = torch.sum(resid.pow(2) * w) / w.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"fitted coef {wls.model.weight.data.numpy().round(2)} loss {loss.item():.4f}")

# export: trace the weighted objective and save it for the sensitivity-analysis job
x0 = X[:10].clone().requires_grad_(True)
traced = torch.jit.trace(wls, (x0, w[:10]))
path = os.path.join(WORK, "wls_traced.pt")
torch.jit.save(traced, path)

# sensitivity-analysis job: d(weighted prediction sum)/d(inputs), batch by batch
loaded = torch.jit.load(path)
for start in range(0, 40, 10):
    xb = X[start:start + 10].clone().requires_grad_(True)
    out = loaded(xb, w[start:start + 10])
    (g,) = torch.autograd.grad(out, xb)
    print(f"batch {start // 10}: mean |d out / d x| = {g.abs().mean(0).tolist()}")
