"""Two-stage convection PINN, FP32 Adam then FP64 Adam (chlorwu/tmc-pinn new/32adamTO64adam-convect.py: stage 1 trains in float32, stage 2 converts model and data with .to(torch.float64)): the variant keeps stepping stage 1's Adam after the cast instead of building optimizer64, and Adam's float32 state meets the float64 parameters
source: https://github.com/chlorwu/tmc-pinn/blob/8f97523e7e17ac6acb7272548fcd49ee007552c2/new/32adamTO64adam-convect.py
reported-error: (none filed; the file creates optimizer64 = Adam(model.parameters(), lr=1e-4) after the cast; reusing the stage-1 optimizer fails at its first FP64 step)
outcome: RuntimeError: expected dtype float for `end` but got dtype double at line 72
root-cause: line 66
expect: DG015
"""
import numpy as np
import torch
import torch.nn as nn
from torch.optim import Adam

ADAM_EPOCHS = 3
ADAM64_EPOCHS = 3
BETA = 50
DTYPE_ADAM = torch.float32
DTYPE_ADAM64 = torch.float64
torch.manual_seed(0)
device = "cpu"


class Model(nn.Module):
    def __init__(self, in_dim=2, hidden_dim=32, out_dim=1, num_layer=3):
        super().__init__()
        layers = [nn.Linear(in_dim, hidden_dim), nn.Tanh()]
        for _ in range(num_layer - 1):
            layers += [nn.Linear(hidden_dim, hidden_dim), nn.Tanh()]
        self.linear = nn.Sequential(*layers, nn.Linear(hidden_dim, out_dim))

    def forward(self, x, t):
        return self.linear(torch.cat((x, t), dim=-1))


def get_data(n=21):
    x, t = np.meshgrid(np.linspace(0, 2 * np.pi, n), np.linspace(0, 1, n), indexing="ij")
    res = np.stack([x.reshape(-1), t.reshape(-1)], -1)
    return res, res[res[:, 1] == 0], res[res[:, 0] == 2 * np.pi], res[res[:, 0] == 0]


def losses(model, x_res, t_res, x_left, t_left, x_upper, t_upper, x_lower, t_lower):
    pred_res = model(x_res, t_res)
    u_x = torch.autograd.grad(pred_res, x_res, torch.ones_like(pred_res), retain_graph=True, create_graph=True)[0]
    u_t = torch.autograd.grad(pred_res, t_res, torch.ones_like(pred_res), retain_graph=True, create_graph=True)[0]
    loss_res = torch.mean((u_t + BETA * u_x) ** 2)
    loss_bc = torch.mean((model(x_upper, t_upper) - model(x_lower, t_lower)) ** 2)
    loss_ic = torch.mean((model(x_left, t_left)[:, 0] - torch.sin(x_left[:, 0])) ** 2)
    return loss_res + loss_bc + loss_ic


res, b_left, b_upper, b_lower = get_data()
tensors = [torch.tensor(a, dtype=DTYPE_ADAM, requires_grad=True).to(device) for a in (res, b_left, b_upper, b_lower)]
data = [part for a in tensors for part in (a[..., 0:1], a[..., 1:2])]

model = Model().to(DTYPE_ADAM).to(device)

# STAGE 1: FP32 Adam
optimizer = Adam(model.parameters(), lr=1e-4)
for epoch in range(ADAM_EPOCHS):
    optimizer.zero_grad()
    loss = losses(model, *data)
    loss.backward()
    optimizer.step()
    print(f"fp32 epoch {epoch} loss {loss.item():.6e}")

# STAGE 2: FP64 Adam
model = model.to(DTYPE_ADAM64)  # root-cause
data = [d.detach().to(DTYPE_ADAM64).requires_grad_(True) for d in data]
for epoch in range(ADAM_EPOCHS, ADAM_EPOCHS + ADAM64_EPOCHS):
    optimizer.zero_grad()
    loss = losses(model, *data)
    loss.backward()
    optimizer.step()  # fails-here
    print(f"fp64 epoch {epoch} loss {loss.item():.6e}")
