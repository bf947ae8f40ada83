"""Standard AMP recipe: float32 model, fp16 autocast for the forward, GradScaler
with unscale_ + gradient clipping."""
import torch
from torch import nn, optim


def pick_device():
    return ("cuda", torch.device("cuda")) if torch.cuda.is_available() else ("cpu", torch.device("cpu"))


device_type, device = pick_device()
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).to(device)
optimizer = optim.Adam(model.parameters(), lr=1e-3)
scaler = torch.amp.GradScaler(device_type)

for step in range(5):
    inputs = torch.randn(16, 32, device=device)
    labels = torch.randint(0, 10, (16,), device=device)
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast(device_type=device_type, dtype=torch.float16):
        loss = nn.functional.cross_entropy(model(inputs), labels)
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(optimizer)
    scaler.update()
    print(step, loss.item(), "scale", scaler.get_scale())
