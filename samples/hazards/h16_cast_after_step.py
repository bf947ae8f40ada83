"""H16: casting the model after the optimizer has state.

`model.double()` keeps the same Parameter objects, but Adam's exp_avg/exp_avg_sq were
created as float32 by the first step(). The next step fails with
"expected dtype float for `end` but got dtype double".
"""
import torch
from torch import nn


def train(model, optimizer, x, y, steps):
    for _ in range(steps):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
    return loss.item()


torch.manual_seed(0)
x = torch.randn(128, 4)
y = x.sum(dim=1, keepdim=True)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

print("float32 warm-up loss:", train(model, optimizer, x, y, steps=20))

# Fine-tune in double precision for the last few steps.
model.double()  # expect: DG015
print("float64 loss:", train(model, optimizer, x.double(), y.double(), steps=5))
