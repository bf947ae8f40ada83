"""Pure fp16 training with Adam eps raised to 1e-4 so it does not round to zero (advice from the thread)
source: https://github.com/NVIDIA/apex/issues/240
reported-error: silent (loss NaN after the first step with fp16 weights)
outcome: ok
root-cause: none
expect: none
"""
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1)).to(device).half()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-4)
for step in range(10):
    x = torch.randn(8, 16, device=device, dtype=torch.float16)
    y = torch.randn(8, 1, device=device, dtype=torch.float16)
    loss = nn.functional.mse_loss(model(x).float(), y.float())
    optimizer.zero_grad()
    loss.backward()
    for param in model.parameters():
        print(step, param.grad.float().sum().item()) if step == 0 else None
    optimizer.step()
assert not any(torch.isnan(p).any() for p in model.parameters())
print("final loss", loss.item())
