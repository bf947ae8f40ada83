"""RL/SFT trainer peft-init block that casts every trainable (LoRA) parameter with param.data = param.data.to(dtype) where dtype follows args.fp16, then trains with torch.amp.GradScaler; clipping calls scaler.unscale_(optimizer) on float16 gradients
source: https://github.com/unslothai/unsloth/pull/4005
reported-error: GradScaler crash when trainable parameters are cast to a 16-bit dtype (GradScaler requires float32 parameters when fp16 is enabled)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 48
root-cause: line 31
expect: DG014
"""
from types import SimpleNamespace

import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4):
        super().__init__()
        self.base = base.requires_grad_(False)
        self.lora_A = nn.Linear(base.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base.out_features, bias=False)
        nn.init.zeros_(self.lora_B.weight)

    def forward(self, x):
        return self.base(x) + self.lora_B(self.lora_A(x))


def peft_init(model, args):
    model.proj = LoRALinear(model.proj)
    dtype = torch.float16 if args.fp16 else torch.bfloat16
    for param in model.parameters():
        if param.requires_grad:
            param.data = param.data.to(dtype)  # root-cause
    return model


class PolicyHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(32, 32)

    def forward(self, h):
        return self.proj(h.to(self.proj.lora_A.weight.dtype)).float()


def training_step(model, batch, optimizer, scaler, args):
    h, target = batch
    loss = (model(h) - target).pow(2).mean()
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)  # fails-here
    torch.nn.utils.clip_grad_norm_([p for p in model.parameters() if p.requires_grad], args.max_grad_norm)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()
    return loss.item()


args = SimpleNamespace(fp16=True, learning_rate=5e-5, max_grad_norm=1.0)
model = peft_init(PolicyHead(), args)
model.proj.base.to(torch.float16)
optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=args.learning_rate)
scaler = torch.amp.GradScaler("cpu", enabled=args.fp16)
print("loss", training_step(model, (torch.randn(8, 32), torch.randn(8, 32)), optimizer, scaler, args))
