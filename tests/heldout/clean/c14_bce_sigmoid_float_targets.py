"""Sigmoid head + BCELoss with float32 targets shaped like the output."""
import torch
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

X = torch.randn(200, 10)
y = (X[:, 0] > 0).long()

model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())
criterion = nn.BCELoss()
optimizer = optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(X, y), batch_size=25, shuffle=True)

for epoch in range(2):
    for xb, yb in loader:
        probs = model(xb)
        loss = criterion(probs, yb.float().view_as(probs))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("epoch", epoch, "loss", loss.item())
