"""Prompt-encoder fine-tuning that keeps the float32 parameters Adam owns and runs only the forward under torch.autocast("cpu", dtype=torch.bfloat16); the loss is computed outside autocast from the bfloat16 logits (it promotes) and the parameters stay finite
source: https://discuss.pytorch.org/t/is-autocast-failing-to-cast-gradients/197299
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class PromptEncoder(nn.Module):
    def __init__(self, n_tokens=8, dim=32):
        super().__init__()
        self.prompt = nn.Parameter(torch.randn(n_tokens, dim) * 0.02)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, 1))

    def forward(self, x):
        return self.mlp(x + self.prompt.mean(0)).squeeze(-1)


model = PromptEncoder()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(64, 32)
y = (x.sum(1) > 0).float()
for step in range(20):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = model(x)
    loss = nn.functional.binary_cross_entropy_with_logits(logits.float(), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
assert all(p.dtype == torch.float32 and torch.isfinite(p).all() for p in model.parameters())
print(f"loss {loss.item():.4f}, grad dtype {model.prompt.grad.dtype}")
