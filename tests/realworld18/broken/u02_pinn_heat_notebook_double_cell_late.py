"""Notebook export of a 1D heat-equation PINN: the network is built in an early cell, a later "precision" cell calls torch.set_default_dtype(torch.float64) before the collocation grid is made with torch.linspace, so the residual pass feeds float64 points to float32 layers
source: https://github.com/imcs-compsim/pinns_for_comp_mech/pull/9
reported-error: When running on pytorch; RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 27
root-cause: line 37
expect: DG001
"""
#!/usr/bin/env python
# coding: utf-8

# In[1]:

import torch
import torch.nn as nn

torch.manual_seed(0)

# In[2]:


class PINN(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(), nn.Linear(width, 1))

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=1))  # fails-here


model = PINN()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
alpha = 0.1

# In[3]:

# higher precision for the second derivatives
torch.set_default_dtype(torch.float64)  # root-cause

# In[4]:

nx, nt = 20, 20
xs = torch.linspace(0.0, 1.0, nx)
ts = torch.linspace(0.0, 1.0, nt)
X, T = torch.meshgrid(xs, ts, indexing="ij")
x_col = X.reshape(-1, 1).requires_grad_(True)
t_col = T.reshape(-1, 1).requires_grad_(True)

# In[5]:


def heat_residual(model, x, t):
    u = model(x, t)
    u_t = torch.autograd.grad(u.sum(), t, create_graph=True)[0]
    u_x = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
    u_xx = torch.autograd.grad(u_x.sum(), x, create_graph=True)[0]
    return u_t - alpha * u_xx


for it in range(5):
    res = heat_residual(model, x_col, t_col)
    loss = (res ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(it, loss.item())
