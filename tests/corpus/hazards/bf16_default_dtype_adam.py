import torch
from torch import nn

torch.set_default_dtype(torch.bfloat16)  # every new float tensor and parameter is bf16

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-4)  # expect: DG013

x = torch.randn(64, 16)
y = x.sum(dim=1, keepdim=True)
for step in range(10):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
