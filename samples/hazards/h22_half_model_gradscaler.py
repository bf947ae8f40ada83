"""H22: GradScaler over a model converted with .half().

GradScaler expects float32 master parameters. With float16 gradients,
`scaler.step` raises "Attempting to unscale FP16 gradients."
"""
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def make_batch(n=64):
    x = torch.randn(n, 20, device=device)
    y = torch.randn(n, 1, device=device)
    return x.half(), y.half()


model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1)).to(device).half()  # expect: DG014
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
scaler = torch.amp.GradScaler(device)

for step in range(10):
    x, y = make_batch()
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
