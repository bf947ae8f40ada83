"""Vision-language LoRA fine-tune on a float16 frozen base where the adapter matrices are created with dtype=torch.float32 (the trainable parameters stay float32); the forward runs under fp16 autocast and GradScaler("cpu") unscales, clips and steps normally
source: https://github.com/huggingface/transformers/issues/30559
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base, r=4, alpha=8):
        super().__init__()
        self.base = base
        self.scaling = alpha / r
        self.lora_A = nn.Parameter(torch.randn(r, base.in_features, dtype=torch.float32) * 0.01)
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r, dtype=torch.float32))

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scaling


base = nn.Sequential(nn.Linear(48, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 100)).to(torch.float16)
for p in base.parameters():
    p.requires_grad_(False)
base[2] = LoRALinear(base[2])
params = [p for p in base.parameters() if p.requires_grad]
assert all(p.dtype == torch.float32 for p in params)
optimizer = torch.optim.AdamW(params, lr=1e-3)
scaler = torch.amp.GradScaler("cpu")
for step in range(3):
    pixels = torch.randn(8, 48)
    labels = torch.randint(0, 100, (8,))
    with torch.autocast("cpu", dtype=torch.float16):
        logits = base(pixels)
    loss = nn.functional.cross_entropy(logits.float(), labels)
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(params, 1.0)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()
print(f"loss {loss.item():.4f}")
