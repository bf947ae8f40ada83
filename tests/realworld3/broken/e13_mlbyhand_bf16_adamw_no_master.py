"""ml-by-hand: weights stored in bf16 with no fp32 master copy; AdamW updates round back to the old value
source: https://github.com/workofart/ml-by-hand/pull/85
reported-error: silent (|delta|.max() = 0.0 after 100 steps, 0 / 768 weights moved)
outcome: ok (silent: bf16 storage, no master: |delta|.max() = 0.0 | 0 / 1024 moved | loss 0.9586799144744873)
root-cause: line 36
expect: DG013
"""
import torch
import torch.nn as nn


class TinyBlock(nn.Module):
    def __init__(self, d_model=32):
        super().__init__()
        self.ln = nn.LayerNorm(d_model)
        self.proj = nn.Linear(d_model, d_model, bias=False)
        nn.init.ones_(self.proj.weight)

    def forward(self, x):
        return self.proj(self.ln(x))


def train(model, steps=100, lr=6e-4):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    for _ in range(steps):
        x = torch.randn(16, 32, dtype=torch.bfloat16)
        y = torch.randn(16, 32, dtype=torch.bfloat16)
        loss = nn.functional.mse_loss(model(x).float(), y.float())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss


torch.manual_seed(0)
model = TinyBlock().to(dtype=torch.bfloat16)  # root-cause
initial_weight = model.proj.weight.detach().float().clone()
loss = train(model)
delta = (model.proj.weight.detach().float() - initial_weight).abs()
print("bf16 storage, no master: |delta|.max() =", delta.max().item(),
      "|", int((delta > 0).sum()), "/", delta.numel(), "moved", "| loss", loss.item())
