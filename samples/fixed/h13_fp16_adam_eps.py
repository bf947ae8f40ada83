"""H13 fixed: float32 master weights; float16 is used only for compute, inside autocast.

On a GPU, also use torch.amp.GradScaler("cuda") for float16 (see samples/clean/amp_autocast_gradscaler.py).
"""
import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.layers(x)


torch.manual_seed(0)
x = torch.randn(128, 16)
y = x.sum(dim=1, keepdim=True) * 1e-3

model = MLP()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(20):
    optimizer.zero_grad()
    with torch.autocast(device_type="cpu", dtype=torch.float16):
        pred = model(x)
    loss = nn.functional.mse_loss(pred, y)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4g}")
