"""H14: bfloat16 weights near 1.0 do not move with Adam(lr=1e-3): the update rounds away (DG013)."""
import torch
from torch import nn

w = nn.Parameter(torch.ones(3, dtype=torch.bfloat16))
opt = torch.optim.Adam([w], lr=1e-3)
loss = w.sum()
loss.backward()
opt.step()
