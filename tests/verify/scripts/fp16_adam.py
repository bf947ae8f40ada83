"""H13: float16 parameters with Adam's default eps give inf/NaN after one step (DG012)."""
import torch
from torch import nn

w = nn.Parameter(torch.ones(3, dtype=torch.float16))
opt = torch.optim.Adam([w], lr=1e-3)
scale = torch.tensor([1e-4, 0.0, 1.0], dtype=torch.float16)
loss = (w * scale).sum()
loss.backward()
opt.step()
