import torch
from torch import nn


def train(model, data, targets, epochs):
    optimizer = torch.optim.Adam(model.parameters() lr=1e-3)  # expect: DG000
    for _ in range(epochs):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(data), targets)
        loss.backward()
        optimizer.step()


train(nn.Linear(3, 1), torch.randn(10, 3), torch.randn(10, 1), 5)
