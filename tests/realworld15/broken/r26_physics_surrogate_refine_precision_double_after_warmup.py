"""Physics surrogate trainer with a "precision refinement" phase: after the warm-up epoch refine_precision(model) switches the network to float64 with model.double(), but the Adam optimizer built (and stepped) on the float32 parameters is kept; its float32 moment buffers meet float64 parameters at the next step
source: https://github.com/pytorch/pytorch/issues/127197
reported-error: Tensors of the same index must be on the same device and the same dtype except step tensors that can be CPU and float32 notwithstanding
outcome: RuntimeError: expected dtype float for `end` but got dtype double at line 34
root-cause: line 19
expect: DG015
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


def make_surrogate():
    return nn.Sequential(nn.Linear(3, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))


def refine_precision(model):
    model.double()  # root-cause
    return torch.float64


def residual_loss(model, x):
    u = model(x)
    return ((u - torch.sin(x.sum(-1, keepdim=True))) ** 2).mean()


def train_one_epoch(model, optimizer, dtype, steps=5):
    for _ in range(steps):
        x = torch.rand(64, 3, dtype=dtype)
        loss = residual_loss(model, x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
    return loss.item()


model = make_surrogate()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
dtype = torch.float32
for epoch in range(3):
    print("epoch", epoch, dtype, train_one_epoch(model, optimizer, dtype))
    if epoch == 0:
        dtype = refine_precision(model)
