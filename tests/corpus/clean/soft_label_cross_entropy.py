"""Float targets ARE valid for cross_entropy when they are class probabilities of shape (N, C)."""
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
num_classes = 4
x = torch.randn(32, 10)
hard = torch.randint(0, num_classes, (32,))
soft = F.one_hot(hard, num_classes).float() * 0.9 + 0.1 / num_classes  # label smoothing by hand

model = nn.Linear(10, num_classes)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(10):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), soft)
    loss.backward()
    optimizer.step()
