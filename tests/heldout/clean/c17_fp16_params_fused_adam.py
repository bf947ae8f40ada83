"""Pure fp16 parameters with a fused Adam: the fused kernel does the update math in
float32, so the tiny default eps does not underflow. Inputs are converted to half too."""
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)).half()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)

X = torch.randn(64, 8).half()
Y = (X.float().sum(1, keepdim=True) * 1e-3).half()
for step in range(20):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    optimizer.step()
finite = all(torch.isfinite(p).all() for p in model.parameters())
print(f"loss {loss.item():.4f}, all params finite: {finite}")
