"""H13: a pure float16 model trained with Adam's default eps.

eps=1e-8 rounds to 0 in float16 and small squared gradients underflow to 0, so
m / (sqrt(v) + eps) becomes inf or NaN. No error is raised: the weights are ruined after
the first optimizer.step().
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
x = torch.randn(128, 16).half()
y = (x.float().sum(dim=1, keepdim=True) * 1e-3).half()

model = MLP().half()  # "half the memory, twice the speed"
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)  # expect: DG012

for step in range(20):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4g}")
