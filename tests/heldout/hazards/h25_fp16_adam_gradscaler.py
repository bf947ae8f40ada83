"""'Fast' fp16 training: the whole model is converted with .half(), optimised with
Adam and a GradScaler. Two hazards: Adam's default eps underflows in fp16, and
GradScaler refuses fp16 gradients (raises at scaler.step)."""
import torch
import torch.nn as nn

device_type = "cuda" if torch.cuda.is_available() else "cpu"
device = torch.device(device_type)

model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).to(device).half()  # expect: DG014
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)  # expect: DG012
scaler = torch.amp.GradScaler(device_type)
criterion = nn.CrossEntropyLoss()

for step in range(5):
    inputs = torch.randn(16, 32, device=device).half()
    labels = torch.randint(0, 10, (16,), device=device)
    optimizer.zero_grad(set_to_none=True)
    loss = criterion(model(inputs), labels)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    print(step, loss.item())
