import torch
from torch import nn

model = nn.Linear(8, 2)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, capturable=True)  # expect: DG016

x = torch.randn(16, 8)
y = torch.randint(0, 2, (16,))
optimizer.zero_grad()
nn.functional.cross_entropy(model(x), y).backward()
optimizer.step()
