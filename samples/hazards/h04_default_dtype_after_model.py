"""H04: set_default_dtype only affects tensors and modules created after the call.

The model was built first, so its weights are float32; the data created after the call
is float64, and the forward pass fails.
"""
import torch
from torch import nn


def build_model():
    return nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 2))


def make_data(n=200):
    x = torch.randn(n, 8)  # expect: DG004
    y = (2.0 * x[:, 0] - x[:, 1] > 0).long()
    return x, y


model = build_model()
torch.set_default_dtype(torch.float64)  # expect: DG001
x, y = make_data()

optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.CrossEntropyLoss()
for step in range(20):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
print(f"final loss {loss.item():.4f}")
