import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

x = torch.randn(96, 12)
y = (x[:, 0] > 0).long().unsqueeze(1)  # expect: DG007
loader = DataLoader(TensorDataset(x, y), batch_size=32)

model = nn.Linear(12, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.BCEWithLogitsLoss()

for epoch in range(3):
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
