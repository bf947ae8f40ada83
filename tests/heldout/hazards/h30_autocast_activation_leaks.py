"""bf16 autocast around the backbone only; the projection head runs outside the
block on the bf16 features -> 'mat1 and mat2 must have the same dtype, but got
BFloat16 and Float' at the head call."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(24, 48), nn.ReLU(), nn.Linear(48, 48))

    def forward(self, x):
        return self.net(x)


backbone = Backbone()
head = nn.Linear(48, 4)
params = list(backbone.parameters()) + list(head.parameters())
optimizer = torch.optim.Adam(params, lr=1e-3)

for step in range(3):
    x = torch.randn(32, 24)
    y = torch.randint(0, 4, (32,))
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        feats = backbone(x)  # expect: DG017 (reported where the bf16 activation is made; the head below fails)
    logits = head(feats)
    loss = F.cross_entropy(logits, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
