import torch
import torch.nn as nn


def make_optimizer(params, lr=1e-3):
    return torch.optim.AdamW(  # expect: DG016
        params,
        lr=lr,
        fused=True,
        differentiable=True,
    )


model = nn.Linear(4, 4)
opt = make_optimizer(model.parameters())
x = torch.randn(8, 4)
opt.zero_grad()
nn.functional.mse_loss(model(x), x).backward()
opt.step()
