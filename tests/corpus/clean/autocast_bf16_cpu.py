import torch
import torch.nn.functional as F
from torch import nn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        return x + self.ff(self.norm(x))


class Classifier(nn.Module):
    def __init__(self, dim=32, n_classes=6):
        super().__init__()
        self.proj = nn.Linear(12, dim)
        self.block = Block(dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        return self.head(self.block(self.proj(x)))


torch.manual_seed(0)
model = Classifier()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
x = torch.randn(48, 12)
y = torch.randint(0, 6, (48,))

for step in range(5):
    optimizer.zero_grad()
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        logits = model(x)
    loss = F.cross_entropy(logits.float(), y)
    loss.backward()
    optimizer.step()
