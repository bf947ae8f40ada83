"""Optimizer flags tuned for speed from a config dict: fused and foreach both on.
Raises at construction: RuntimeError: `fused` and `foreach` cannot be `True` together."""
import torch
import torch.nn as nn

CONFIG = {"lr": 3e-4, "betas": (0.9, 0.95), "weight_decay": 0.1, "epochs": 2}


class TinyTransformerBlock(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ln1 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.ln2 = nn.LayerNorm(d)

    def forward(self, x):
        x = self.ln1(x + self.attn(x, x, x, need_weights=False)[0])
        return self.ln2(x + self.ff(x))


def configure_optimizer(model, cfg):
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    groups = [{"params": decay, "weight_decay": cfg["weight_decay"]},
              {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=cfg["lr"], betas=cfg["betas"], fused=True, foreach=True)  # expect: DG016


model = TinyTransformerBlock()
optimizer = configure_optimizer(model, CONFIG)
for epoch in range(CONFIG["epochs"]):
    x = torch.randn(4, 10, 32)
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())
