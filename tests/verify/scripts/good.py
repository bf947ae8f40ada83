"""A correct tiny training loop: float32 data, float32 model, Adam."""
import os
import sys

import torch
from torch import nn

torch.manual_seed(0)
print("CUDA_VISIBLE_DEVICES=" + repr(os.environ.get("CUDA_VISIBLE_DEVICES")))
print("args=" + repr(sys.argv[1:]))
print("cwd=" + os.getcwd())
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(16, 3, device=device)
y = torch.randn(16, 1, device=device)
for epoch in range(1000):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    print("stepped", epoch)  # must never run: the harness stops at the first step
raise SystemExit("the harness let the loop continue")
