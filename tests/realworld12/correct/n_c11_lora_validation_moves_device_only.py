"""DreamBooth-LoRA style trainer (fp16 frozen base, float32 LoRA parameters, GradScaler) whose log_validation() moves the pipeline with .to(device) only and runs it under autocast, so the shared LoRA parameters stay float32 and unscale_ keeps working after validation
source: https://github.com/huggingface/diffusers/pull/13895
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
        self.base = base.requires_grad_(False)
        self.lora_down = nn.Linear(base.in_features, rank, bias=False)
        self.lora_up = nn.Linear(rank, base.out_features, bias=False)
        nn.init.zeros_(self.lora_up.weight)

    def forward(self, x):
        return self.base(x) + self.lora_up(self.lora_down(x))


def build_unet(weight_dtype, dim=32):
    base = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, dim)).to(dtype=weight_dtype).requires_grad_(False)
    base[0] = LoRALinear(base[0])
    return base


def log_validation(unet, device):
    unet.to(device)
    with torch.no_grad(), torch.autocast(device.type, dtype=torch.float16):
        sample = unet(torch.randn(2, 32, device=device))
    print(f"validation sample std {sample.float().std().item():.4f}")


if __name__ == "__main__":
    device = torch.device("cpu")
    unet = build_unet(torch.float16)
    params = [p for p in unet.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=1e-4)
    scaler = torch.amp.GradScaler(device.type)
    for step in range(5):
        latents = torch.randn(4, 32, device=device)
        with torch.autocast(device.type, dtype=torch.float16):
            loss = (unet(latents).float() - latents).pow(2).mean()
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print(f"step {step}: loss {loss.item():.4f}")
        if (step + 1) % 2 == 0:
            log_validation(unet, device)
