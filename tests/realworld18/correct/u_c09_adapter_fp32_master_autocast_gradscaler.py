"""Adapter fine-tuning with mixed_precision fp16 done the mixed-precision way: only the frozen denoiser is cast to float16, the trainable adapter keeps float32 parameters, the forward runs under CPU float16 autocast and the GradScaler unscales float32 gradients
source: https://github.com/huggingface/accelerate/issues/1778
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Denoiser(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(c, 32, 3, padding=1), nn.SiLU(), nn.Conv2d(32, c, 3, padding=1))

    def forward(self, x):
        return self.net(x)


class Adapter(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.proj = nn.Conv2d(c, c, 1)
        nn.init.zeros_(self.proj.weight)

    def forward(self, x, cond):
        return x + self.proj(cond)


def cast_frozen_modules(denoiser, adapter, mixed_precision):
    weight_dtype = torch.float16 if mixed_precision == "fp16" else torch.float32
    denoiser.requires_grad_(False)
    denoiser.to(dtype=weight_dtype)
    return weight_dtype


config = {"mixed_precision": "fp16", "lr": 1e-4, "steps": 3}
denoiser, adapter = Denoiser(), Adapter()
weight_dtype = cast_frozen_modules(denoiser, adapter, config["mixed_precision"])
optimizer = torch.optim.AdamW(adapter.parameters(), lr=config["lr"])
scaler = torch.amp.GradScaler("cpu")
for step in range(config["steps"]):
    latents = torch.randn(4, 8, 16, 16)
    cond = torch.randn(4, 8, 16, 16)
    noise = torch.randn_like(latents)
    noisy = (latents + noise).to(weight_dtype)
    with torch.autocast("cpu", dtype=torch.float16):
        pred = denoiser(adapter(noisy.float(), cond))
        loss = F.mse_loss(pred.float(), noise)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()
print("loss", loss.item())
