"""LoRA fine-tuning with a float16 base transformer: the LoRA adapters are added after the cast and the trainable parameters are explicitly upcast to float32 before the GradScaler loop
source: https://github.com/zai-org/CogVideo/issues/775
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base, rank=4):
        super().__init__()
        self.base = base
        self.lora_A = nn.Linear(base.in_features, rank, bias=False)
        self.lora_B = nn.Linear(rank, base.out_features, bias=False)
        nn.init.zeros_(self.lora_B.weight)

    def forward(self, x):
        return self.base(x) + self.lora_B(self.lora_A(x))


weight_dtype = torch.float16
transformer = nn.Sequential(nn.Linear(32, 32), nn.GELU(), nn.Linear(32, 32))
transformer.requires_grad_(False)
transformer.to(dtype=weight_dtype)
transformer[0] = LoRALinear(transformer[0])
transformer[2] = LoRALinear(transformer[2])
params = [p for n, p in transformer.named_parameters() if "lora_" in n]
for p in params:
    p.data = p.data.to(torch.float32)

optimizer = torch.optim.AdamW(params, lr=1e-4)
scaler = torch.amp.GradScaler("cpu")
for step in range(3):
    latents = torch.randn(4, 32)
    with torch.autocast("cpu", dtype=weight_dtype):
        loss = (transformer(latents).float() - latents).pow(2).mean()
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(params, 1.0)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()
    print(step, round(loss.item(), 4))
