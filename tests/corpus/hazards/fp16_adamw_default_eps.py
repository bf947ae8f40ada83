import torch
import torch.nn as nn


class TinyTransformerBlock(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, num_heads=4, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, dim))

    def forward(self, x):
        x = x + self.attn(x, x, x, need_weights=False)[0]
        return x + self.ff(x)


def setup():
    model = TinyTransformerBlock().to(dtype=torch.float16)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)  # expect: DG012
    return model, optimizer


model, optimizer = setup()
tokens = torch.randn(4, 10, 32, dtype=torch.float16)
for step in range(5):
    optimizer.zero_grad()
    out = model(tokens)
    loss = out.float().pow(2).mean()
    loss.backward()
    optimizer.step()
