"""1-D convection PINN in float64 where torch.set_default_dtype(torch.float64) runs at the top of the script, before the model and the collocation grid are created, so weights and points are both float64
source: https://github.com/miniHuiHui/PINN_FP64/blob/2a07058e8b3ee46aefb19c9d89e0d397397c40af/convection_fp64.py
reported-error: none (fixed version: the default dtype is set before anything is built)
outcome: ok
root-cause: -
expect: none
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.optim import Adam

torch.set_default_dtype(torch.float64)
seed = 0
np.random.seed(seed)
torch.manual_seed(seed)
beta = 50


# ---- util.py
def get_data(x_range, y_range, x_num, y_num):
    x = torch.linspace(x_range[0], x_range[1], x_num)
    t = torch.linspace(y_range[0], y_range[1], y_num)
    x_mesh, t_mesh = torch.meshgrid(x, t, indexing="ij")
    data = torch.stack([x_mesh.reshape(-1), t_mesh.reshape(-1)], -1)
    b_left = data[t_mesh.reshape(-1) == y_range[0]]
    b_upper = data[x_mesh.reshape(-1) == x_range[1]]
    b_lower = data[x_mesh.reshape(-1) == x_range[0]]
    return data, b_left, b_upper, b_lower


# ---- models/PINN.py
class Model(nn.Module):
    def __init__(self, in_dim, hidden_dim, out_dim, num_layer):
        super().__init__()
        layers = [nn.Linear(in_dim, hidden_dim), nn.Tanh()]
        for _ in range(num_layer - 1):
            layers += [nn.Linear(hidden_dim, hidden_dim), nn.Tanh()]
        layers.append(nn.Linear(hidden_dim, out_dim))
        self.linear = nn.Sequential(*layers)

    def forward(self, x, t):
        return self.linear(torch.cat((x, t), dim=-1))


def init_weights(m):
    if isinstance(m, nn.Linear):
        torch.nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.00)


parser = argparse.ArgumentParser("Training Point Optimization")
parser.add_argument("--model", type=str, default="pinn")
parser.add_argument("--device", type=str, default="cpu")
args = parser.parse_args([])
device = args.device

model = Model(in_dim=2, hidden_dim=32, out_dim=1, num_layer=3).to(device)
model.apply(init_weights)

res, b_left, b_upper, b_lower = get_data([0, 2 * np.pi], [0, 1], 21, 21)
res = res.clone().requires_grad_(True).to(device)
x_res, t_res = res[:, 0:1], res[:, 1:2]
x_left, t_left = b_left[:, 0:1], b_left[:, 1:2]
x_upper, t_upper = b_upper[:, 0:1], b_upper[:, 1:2]
x_lower, t_lower = b_lower[:, 0:1], b_lower[:, 1:2]

optim = Adam(model.parameters(), lr=1e-3)
for i in range(3):
    pred_res = model(x_res, t_res)
    pred_left = model(x_left, t_left)
    pred_upper = model(x_upper, t_upper)
    pred_lower = model(x_lower, t_lower)
    u_x = torch.autograd.grad(pred_res, x_res, grad_outputs=torch.ones_like(pred_res), retain_graph=True, create_graph=True)[0]
    u_t = torch.autograd.grad(pred_res, t_res, grad_outputs=torch.ones_like(pred_res), retain_graph=True, create_graph=True)[0]
    loss = torch.mean((u_t + beta * u_x) ** 2) + torch.mean((pred_upper - pred_lower) ** 2) + torch.mean((pred_left[:, 0] - torch.sin(x_left[:, 0])) ** 2)
    optim.zero_grad()
    loss.backward()
    optim.step()
    print(f"step {i} loss {loss.item():.5f}")
