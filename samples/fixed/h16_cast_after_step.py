"""H16 fixed: cast the model first, then create the optimizer, then train."""
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
x = torch.randn(128, 4, dtype=torch.float64)
y = x.sum(dim=1, keepdim=True)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1)).double()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

print("float64 loss:", train(model, optimizer, x, y, steps=25))
