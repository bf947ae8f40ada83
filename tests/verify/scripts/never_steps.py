"""Computes a loss and gradients but never calls optimizer.step()."""
import torch
from torch import nn

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss = model(torch.randn(5, 4)).pow(2).mean()
loss.backward()
print("done without stepping")
