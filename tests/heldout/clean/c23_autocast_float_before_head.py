"""The backbone runs under bf16 autocast; its output is cast back with .float()
before the float32 head that runs outside the block."""
import torch
import torch.nn as nn
import torch.nn.functional as F

backbone = nn.Sequential(nn.Linear(24, 48), nn.ReLU(), nn.Linear(48, 48))
head = nn.Linear(48, 4)
optimizer = torch.optim.Adam(list(backbone.parameters()) + list(head.parameters()), lr=1e-3)

for step in range(4):
    x = torch.randn(32, 24)
    y = torch.randint(0, 4, (32,))
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        feats = backbone(x)
    logits = head(feats.float())
    loss = F.cross_entropy(logits, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, round(loss.item(), 4))
