"""The optimizer is created before .to(device) and .double(); that is fine in current
PyTorch because the Parameter objects are kept, and no step has been taken yet."""
import numpy as np
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

model = nn.Sequential(nn.Linear(5, 10), nn.Tanh(), nn.Linear(10, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
model.to(device)
model.double()

X = torch.from_numpy(np.random.rand(100, 5)).to(device)
y = torch.from_numpy(np.random.rand(100, 1)).to(device)
for step in range(10):
    loss = nn.functional.mse_loss(model(X), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("loss", loss.item(), "param dtype", next(model.parameters()).dtype)
