"""H15: fused=True with foreach=True is refused at construction (DG016)."""
import torch

w = torch.nn.Parameter(torch.ones(3))
opt = torch.optim.Adam([w], fused=True, foreach=True)  # ERROR-LINE
