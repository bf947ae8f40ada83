"""Mixed precision done right: float32 parameters, float16 compute in autocast, GradScaler."""
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 1)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
scaler = torch.amp.GradScaler(device)
criterion = nn.MSELoss()

x = torch.randn(256, 32, device=device)
y = x[:, :4].sum(dim=1, keepdim=True)

for step in range(10):
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast(device_type=device, dtype=torch.float16):
        pred = model(x)
    loss = criterion(pred.float(), y)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
print(f"loss {loss.item():.4f}")
