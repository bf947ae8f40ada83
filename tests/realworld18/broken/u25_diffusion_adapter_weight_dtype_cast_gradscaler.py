"""Adapter fine-tuning script in the accelerate style: with mixed_precision="fp16" the helper cast_frozen_modules() moves the denoiser *and* the new trainable adapter to weight_dtype=float16, then the loop uses a GradScaler; scaler.step() refuses the float16 gradients
source: https://github.com/huggingface/accelerate/issues/1778
reported-error: When I train with mixed precision, I get a "ValueError: Attempting to unscale FP16 gradients" error.
outcome: ValueError: Attempting to unscale FP16 gradients. at line 54
root-cause: line 36
expect: DG014
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
    adapter.to(dtype=weight_dtype)  # root-cause
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
        pred = denoiser(adapter(noisy, cond.to(weight_dtype)))
        loss = F.mse_loss(pred.float(), noise)
    scaler.scale(loss).backward()
    scaler.step(optimizer)  # fails-here
    scaler.update()
    optimizer.zero_grad()
print("loss", loss.item())
