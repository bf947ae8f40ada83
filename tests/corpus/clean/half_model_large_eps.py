"""Pure float16 weights can train with Adam if eps is representable in float16."""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)).half()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-4)

X = torch.randn(64, 8, dtype=torch.float16)
Y = (X.sum(dim=1, keepdim=True) * 0.1).half()
for step in range(10):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    optimizer.step()
