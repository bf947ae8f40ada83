"""Creating the optimizer before .to() is fine in current PyTorch: the Parameter objects are kept."""
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"

model = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
model.to(device)

x = torch.randn(40, 5).to(device)
y = torch.randn(40, 1).to(device)
for i in range(10):
    optimizer.zero_grad()
    loss = nn.functional.smooth_l1_loss(model(x), y)
    loss.backward()
    optimizer.step()
