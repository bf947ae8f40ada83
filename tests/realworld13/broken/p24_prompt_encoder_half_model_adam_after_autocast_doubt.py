"""Prompt-encoder fine-tuning where the author, surprised that autocast leaves gradients in float32, switches to model.half() in configure_precision() and keeps torch.optim.Adam with its default eps=1e-8; the float16 parameters turn inf/NaN after the first steps without any error
source: https://discuss.pytorch.org/t/is-autocast-failing-to-cast-gradients/197299
reported-error: none raised (gradients under autocast are float32; after model.half() they are float16)
outcome: ok (silent: after the Adam steps at line 39 the float16 parameters become non-finite, printed as "step N: loss nan, non-finite params K" with K above 0)
root-cause: line 27
expect: DG012
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
        h = x + self.prompt.mean(0)
        return self.mlp(h).squeeze(-1)


def configure_precision(model, use_half=True):
    if use_half:
        model.half()  # root-cause
    return model


model = configure_precision(PromptEncoder())
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(64, 32).half()
y = (x.float().sum(1) > 0).half()
for step in range(6):
    loss = nn.functional.binary_cross_entropy_with_logits(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()  # fails-here
    bad = sum(int((~torch.isfinite(p)).sum()) for p in model.parameters())
    print(f"step {step}: loss {loss.item():.4f}, non-finite params {bad}")
