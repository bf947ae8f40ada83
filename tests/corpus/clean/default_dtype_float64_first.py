"""Scientific fitting in double precision: the default dtype is set before anything exists."""
import numpy as np
import torch
from torch import nn

torch.set_default_dtype(torch.float64)

xs = np.linspace(-1.0, 1.0, 64).reshape(-1, 1)
ys = 0.5 * xs**3 - xs + 0.1

x = torch.from_numpy(xs)  # float64, and so is the model
y = torch.from_numpy(ys)

model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=5)


def closure():
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    return loss


for _ in range(3):
    loss = optimizer.step(closure)
print(f"loss {loss.item():.5f}")
