"""H04 fixed: the default dtype is set once, at the very top, before any model or data exists."""
import torch
from torch import nn

torch.set_default_dtype(torch.float64)


def build_model():
    return nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 2))


def make_data(n=200):
    x = torch.randn(n, 8)
    y = (2.0 * x[:, 0] - x[:, 1] > 0).long()
    return x, y


model = build_model()
x, y = make_data()

optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.CrossEntropyLoss()
for step in range(20):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
print(f"final loss {loss.item():.4f}")
