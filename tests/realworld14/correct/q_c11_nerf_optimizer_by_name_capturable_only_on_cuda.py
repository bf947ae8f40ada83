"""Neural-field trainer building its optimizer with getattr(torch.optim, name) where capturable is set from the device (capturable=device.type == "cuda"), so CPU runs use the plain Adam step
source: https://github.com/PJLab-ADG/neuralsim/issues/18
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("NF_DEVICE", "cuda" if torch.cuda.is_available() else "cpu"))
CFG = {"name": "Adam", "kwargs": {"lr": 1e-2, "betas": (0.9, 0.99), "eps": 1e-15, "capturable": device.type == "cuda"}}


class Field(nn.Module):
    def __init__(self, table=2048, feat=4):
        super().__init__()
        self.table = nn.Parameter(torch.randn(table, feat) * 1e-4)
        self.register_buffer("primes", torch.tensor([1, 2654435761, 805459861]))
        self.mlp = nn.Sequential(nn.Linear(feat, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, xyz):
        idx = ((xyz * 64).long() * self.primes).sum(-1) % self.table.shape[0]
        return self.mlp(self.table[idx])


model = Field().to(device)
groups = [{"params": [model.table], "lr": 0.1}, {"params": model.mlp.parameters()}]
opt = getattr(torch.optim, CFG["name"])(groups, **CFG["kwargs"])
for it in range(3):
    xyz = torch.rand(1024, 3, device=device)
    loss = (model(xyz)[:, :3] - xyz).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item(), "capturable", opt.defaults["capturable"])
