"""Notebook-style regression (linear cells, no main) that starts with torch.set_default_tensor_type(torch.DoubleTensor) so that the torch.Tensor(...) legacy constructors and the nn.Linear weights agree; trains in float64 but warns that the call is deprecated
source: https://github.com/pytorch/pytorch/pull/117505
reported-error: UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 16
expect: DG002
"""
import io

import numpy as np
import pandas as pd
import torch
import torch.nn as nn

# %% setup
torch.set_default_tensor_type(torch.DoubleTensor)  # root-cause
torch.manual_seed(0)

# %% data
csv = io.StringIO("x1,x2,y\n" + "\n".join(
    f"{a:.3f},{b:.3f},{3 * a - 2 * b + 0.5:.3f}" for a, b in np.random.default_rng(0).uniform(-1, 1, (64, 2))))
df = pd.read_csv(csv)
X = torch.Tensor(df[["x1", "x2"]].values.tolist())
y = torch.Tensor(df["y"].values.tolist()).unsqueeze(1)

# %% model
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

# %% train
for epoch in range(50):
    loss = nn.functional.mse_loss(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f} dtype {loss.dtype}")
print("weights", model.weight.data.numpy().round(2), model.bias.item())
