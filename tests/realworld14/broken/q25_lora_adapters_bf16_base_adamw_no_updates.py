"""LoRA fine-tuning of a bfloat16 base: LoRALinear.from_linear() creates the A/B adapter Parameters with dtype=base.weight.dtype (bfloat16), and AdamW at a fine-tuning learning rate updates them in bfloat16, where most steps round away; the loss barely moves and no error is raised
source: https://github.com/keras-team/keras-hub/issues/2629
reported-error: none raised (Adam produces near-zero effective updates when LoRA weights are bfloat16)
outcome: ok (silent: the AdamW steps at line 47 leave most bfloat16 adapter weights unchanged, printed as "adapter weights changed: K/N" with K under N/2)
root-cause: line 25
expect: DG013
"""
import functools

import torch
import torch.nn as nn

torch.manual_seed(0)


class LoRALinear(nn.Module):
    def __init__(self, base, a, b, alpha=16):
        super().__init__()
        self.base, self.lora_a, self.lora_b = base, a, b
        self.scale = alpha / a.shape[0]

    @classmethod
    def from_linear(cls, base, rank=8):
        dtype = base.weight.dtype
        a = nn.Parameter(torch.randn(rank, base.in_features, dtype=dtype) * 0.5 + 1.0)  # root-cause
        b = nn.Parameter(torch.full((base.out_features, rank), 0.5, dtype=dtype))
        return cls(base, a, b)

    def forward(self, x):
        return self.base(x) + self.scale * (x @ self.lora_a.t() @ self.lora_b.t())


base = nn.Sequential(nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 10)).to(torch.bfloat16)
for p in base.parameters():
    p.requires_grad_(False)
base[0] = LoRALinear.from_linear(base[0])
adapters = [p for p in base.parameters() if p.requires_grad]
make_opt = functools.partial(torch.optim.AdamW, lr=1e-4, weight_decay=0.0)
opt = make_opt(adapters)
before = [p.detach().clone() for p in adapters]
x = torch.randn(64, 64, dtype=torch.bfloat16)
y = torch.randint(0, 10, (64,))
for step in range(20):
    loss = nn.functional.cross_entropy(base(x).float(), y)
    opt.zero_grad()
    loss.backward()
    opt.step()  # fails-here
changed = sum(int((p != b).sum()) for p, b in zip(adapters, before))
total = sum(p.numel() for p in adapters)
print(f"adapter weights changed: {changed}/{total}, loss {loss.item():.4f}")
