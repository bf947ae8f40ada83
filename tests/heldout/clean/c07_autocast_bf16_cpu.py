"""bf16 autocast on CPU done right: float32 parameters, the whole forward inside the
autocast block, loss computed outside (elementwise/CE losses promote)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(24, 48), nn.ReLU(), nn.Linear(48, 48))
        self.head = nn.Linear(48, 4)

    def forward(self, x):
        return self.head(self.backbone(x))


model = Encoder()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(5):
    x = torch.randn(32, 24)
    y = torch.randint(0, 4, (32,))
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        logits = model(x)
    loss = F.cross_entropy(logits, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, logits.dtype, round(loss.item(), 4))
