"""Multi-task training over two loaders iterated with zip(): classification (int64
labels) and regression (float32 targets)."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def cls_dataset(n=128):
    x = np.random.randn(n, 10).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int64)
    return TensorDataset(torch.from_numpy(x), torch.from_numpy(y))


def reg_dataset(n=128):
    x = torch.randn(n, 10)
    return TensorDataset(x, x.norm(dim=1, keepdim=True))


class MultiHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(10, 32), nn.ReLU())
        self.cls = nn.Linear(32, 2)
        self.reg = nn.Linear(32, 1)

    def forward(self, x, task):
        h = self.shared(x)
        return self.cls(h) if task == "cls" else self.reg(h)


model = MultiHead()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
cls_loader = DataLoader(cls_dataset(), batch_size=16, shuffle=True)
reg_loader = DataLoader(reg_dataset(), batch_size=16, shuffle=True)

for epoch in range(2):
    for i, ((xc, yc), (xr, yr)) in enumerate(zip(cls_loader, reg_loader)):
        loss = F.cross_entropy(model(xc, "cls"), yc) + F.smooth_l1_loss(model(xr, "reg"), yr)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: {i + 1} steps, loss {loss.item():.3f}")
