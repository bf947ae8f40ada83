"""Physics-informed heat-equation fit whose JSON run config names a legacy tensor type ("torch.DoubleTensor") and a Precision helper applies it with torch.set_default_tensor_type; everything then runs in float64 consistently, but the call is deprecated since PyTorch 2.1 and warns
source: https://github.com/pytorch/pytorch/issues/53124
reported-error: none at run time: UserWarning torch.set_default_tensor_type() is deprecated as of PyTorch 2.1 (the API is slated for removal)
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 21
expect: DG002
"""
import json

import torch
import torch.nn as nn

RUN_CONFIG = json.loads('{"precision": {"tensor_type": "torch.DoubleTensor"}, "width": 24, "iters": 30, "alpha": 0.1}')


class Precision:
    def __init__(self, block):
        self.tensor_type = block["tensor_type"]

    def apply(self):
        torch.set_default_tensor_type(self.tensor_type)  # root-cause


class HeatNet(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(), nn.Linear(width, 1))

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=1))


def residual(model, x, t, alpha):
    x.requires_grad_(True)
    t.requires_grad_(True)
    u = model(x, t)
    u_t, u_x = torch.autograd.grad(u.sum(), (t, x), create_graph=True)
    u_xx = torch.autograd.grad(u_x.sum(), x, create_graph=True)[0]
    return u_t - alpha * u_xx


def main(cfg):
    Precision(cfg["precision"]).apply()
    model = HeatNet(cfg["width"])
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(cfg["iters"]):
        x, t = torch.rand(64, 1), torch.rand(64, 1)
        x0 = torch.rand(32, 1)
        ic = model(x0, torch.zeros_like(x0)) - torch.sin(torch.pi * x0)
        loss = residual(model, x, t, cfg["alpha"]).pow(2).mean() + ic.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"final loss {loss.item():.5f} ({loss.dtype})")


if __name__ == "__main__":
    main(RUN_CONFIG)
