"""H15: Adam(fused=True, foreach=True).

The two implementations are mutually exclusive; the constructor raises
"`fused` and `foreach` cannot be `True` together."
"""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4, fused=True, foreach=True)  # expect: DG016

x = torch.randn(64, 10)
y = torch.randn(64, 1)
for step in range(5):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
