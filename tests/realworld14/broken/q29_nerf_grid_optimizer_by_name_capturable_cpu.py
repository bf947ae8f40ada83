"""Neural-field trainer that builds its optimizer by name from a config, getattr(torch.optim, cfg["optim"]["name"])(params, **cfg["optim"]["kwargs"]), with capturable=True copied from a CUDA-graph config; on a CPU run the first step fails the capturable device check
source: https://github.com/PJLab-ADG/neuralsim/issues/18
reported-error: AssertionError: If capturable=True, params and state_steps must be CUDA tensors.
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at line 46
root-cause: line 15
expect: DG016
"""
import os

import torch
import torch.nn as nn

CFG = {
    "device": os.environ.get("NF_DEVICE", "cpu"),
    "optim": {"name": "Adam", "kwargs": {"lr": 1e-2, "betas": (0.9, 0.99), "eps": 1e-15, "capturable": True}},  # root-cause
}


class HashGridField(nn.Module):
    def __init__(self, table=2048, feat=4):
        super().__init__()
        self.table = nn.Parameter(torch.randn(table, feat) * 1e-4)
        self.register_buffer("primes", torch.tensor([1, 2654435761, 805459861]))
        self.mlp = nn.Sequential(nn.Linear(feat, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, xyz):
        idx = ((xyz * 64).long() * self.primes).sum(-1) % self.table.shape[0]
        return self.mlp(self.table[idx])


def build_optimizer(model, cfg):
    groups = [{"params": [model.table], "lr": cfg["kwargs"]["lr"] * 10},
              {"params": model.mlp.parameters()}]
    return getattr(torch.optim, cfg["name"])(groups, **cfg["kwargs"])


device = torch.device(CFG["device"])
model = HashGridField().to(device)
opt = build_optimizer(model, CFG["optim"])
for it in range(3):
    xyz = torch.rand(1024, 3, device=device)
    rgb_sigma = model(xyz)
    loss = (rgb_sigma[:, :3] - xyz).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()  # fails-here
print("loss", loss.item())
