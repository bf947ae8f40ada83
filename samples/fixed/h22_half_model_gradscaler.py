"""H22 fixed: float32 parameters, float16 compute under autocast, GradScaler for the step."""
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def make_batch(n=64):
    x = torch.randn(n, 20, device=device)
    y = torch.randn(n, 1, device=device)
    return x, y


model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
scaler = torch.amp.GradScaler(device)

for step in range(10):
    x, y = make_batch()
    optimizer.zero_grad()
    with torch.autocast(device_type=device, dtype=torch.float16):
        pred = model(x)
    loss = nn.functional.mse_loss(pred.float(), y)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
