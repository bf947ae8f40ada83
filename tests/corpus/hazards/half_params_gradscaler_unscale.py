import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 10)).to(device, torch.float16)  # expect: DG014
optimizer = torch.optim.SGD(model.parameters(), lr=1e-2)
scaler = torch.amp.GradScaler(device)

for step in range(5):
    x = torch.randn(16, 10, device=device, dtype=torch.float16)
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), x)
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(optimizer)
    scaler.update()
