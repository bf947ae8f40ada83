"""Physics-informed network for the 1-D heat equation (DeepXDE-style backend setup) that asks for float64 everywhere through torch.set_default_tensor_type(torch.DoubleTensor); the call still works but is deprecated since PyTorch 2.1 in favour of torch.set_default_dtype/set_default_device
source: https://github.com/pytorch/pytorch/pull/120174
reported-error: UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives. (warning added on the Python side of set_default_tensor_type)
outcome: ok (silent: set_default_tensor_type at line 19 prints the deprecation UserWarning; training runs in float64)
root-cause: line 19
expect: DG002
"""
import math

import torch
import torch.nn as nn

config = {"backend": {"float": "float64"}, "lr": 1e-3, "iters": 30, "n_colloc": 64}


# ---- backend/pytorch/tensor.py
def set_backend_precision(cfg):
    if cfg["backend"]["float"] == "float64":
        torch.set_default_tensor_type(torch.DoubleTensor)  # root-cause  # fails-here


class PINN(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 1))

    def forward(self, xt):
        return self.net(xt)


def pde_residual(model, xt, alpha=0.1):
    xt = xt.requires_grad_(True)
    u = model(xt)
    du = torch.autograd.grad(u.sum(), xt, create_graph=True)[0]
    u_x, u_t = du[:, :1], du[:, 1:]
    u_xx = torch.autograd.grad(u_x.sum(), xt, create_graph=True)[0][:, :1]
    return u_t - alpha * u_xx


def train(cfg):
    model = PINN()
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for it in range(cfg["iters"]):
        xt = torch.rand(cfg["n_colloc"], 2)
        x0 = torch.cat([torch.rand(16, 1), torch.zeros(16, 1)], 1)
        loss = pde_residual(model, xt).pow(2).mean() + (model(x0) - torch.sin(math.pi * x0[:, :1])).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"loss {loss.item():.5f} dtype {loss.dtype}")


if __name__ == "__main__":
    torch.manual_seed(0)
    set_backend_precision(config)
    train(config)
