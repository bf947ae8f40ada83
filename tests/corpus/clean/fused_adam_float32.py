import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(20, 64), nn.SiLU(), nn.Linear(64, 20))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05, fused=True)

x = torch.randn(128, 20)
for step in range(5):
    optimizer.zero_grad()
    recon = model(x)
    loss = nn.functional.mse_loss(recon, x)
    loss.backward()
    optimizer.step()
