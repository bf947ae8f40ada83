"""H15 fixed: pick one implementation. fused=True runs on the CPU in current PyTorch."""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4, fused=True)

x = torch.randn(64, 10)
y = torch.randn(64, 1)
for step in range(5):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
