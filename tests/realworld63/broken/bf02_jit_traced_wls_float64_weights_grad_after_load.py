"""Weighted-least-squares model exported with torch.jit.trace and reloaded (re-typed from the issue's WLS module: a Linear model whose forward multiplies its float32 output by per-sample weights): the sample weights come from a pandas column as float64, eager training and tracing work through type promotion, and the reloaded TorchScript module fails in torch.autograd.grad on its second call
source: https://github.com/pytorch/pytorch/issues/116612
reported-error: torch.autograd.grad on the output of a torch.jit traced model, after saving the model to a file and loading it, the second time -> RuntimeError: expected scalar type Double but found Float (Traceback of TorchScript, <backward op>: grad_input = torch.matmul(grad_output, weight)); `self.model(x).to(weights.dtype) * weights` avoids it
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at line 60
root-cause: line 37
expect: DG004
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
        return torch.sum(self.model(x) * weights)  # root-cause-alt


# survey data: two covariates, a response and inverse-variance sample weights
n = 256
df = pd.DataFrame({"x1": rng.normal(size=n), "x2": rng.normal(size=n)})
df["y"] = 1.5 * df["x1"] - 0.7 * df["x2"] + rng.normal(scale=0.3, size=n)
df["w"] = 1.0 / rng.uniform(0.5, 2.0, size=n)

X = torch.tensor(df[["x1", "x2"]].to_numpy(), dtype=torch.float32)
y = torch.tensor(df[["y"]].to_numpy(), dtype=torch.float32)
w = torch.from_numpy(df[["w"]].to_numpy())  # root-cause

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
    (g,) = torch.autograd.grad(out, xb)  # fails-here
    print(f"batch {start // 10}: mean |d out / d x| = {g.abs().mean(0).tolist()}")
