"""Mixup: targets are float class probabilities with the same shape as the logits,
which cross_entropy accepts."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES = 5


def mixup(x, y, alpha=0.4):
    lam = torch.distributions.Beta(alpha, alpha).sample().item()
    perm = torch.randperm(x.size(0))
    y_onehot = F.one_hot(y, N_CLASSES).float()
    return lam * x + (1 - lam) * x[perm], lam * y_onehot + (1 - lam) * y_onehot[perm]


model = nn.Sequential(nn.Linear(20, 40), nn.ReLU(), nn.Linear(40, N_CLASSES))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

for step in range(10):
    x = torch.randn(32, 20)
    y = torch.randint(0, N_CLASSES, (32,))
    x_mix, y_soft = mixup(x, y)
    logits = model(x_mix)
    loss = F.cross_entropy(logits, y_soft)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 3 == 0:
        print(step, loss.item())
