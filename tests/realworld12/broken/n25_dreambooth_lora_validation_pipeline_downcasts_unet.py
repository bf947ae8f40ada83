"""DreamBooth-LoRA style trainer (fp16 base, float32 LoRA parameters, GradScaler) whose log_validation() builds the validation pipeline around the live unet and moves it with .to(device, dtype=weight_dtype); that downcasts the shared LoRA parameters to float16, and the first optimizer step after validation fails in scaler.unscale_
source: https://github.com/huggingface/diffusers/pull/13895
reported-error: ValueError: Attempting to unscale FP16 gradients. (train_dreambooth_lora.py with --mixed_precision fp16 and --validation_prompt, on the first step after a validation run)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 77
root-cause: line 41
expect: DG014
"""
import argparse

import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base, rank=4):
        super().__init__()
        self.base = base
        self.lora_down = nn.Linear(base.in_features, rank, bias=False)
        self.lora_up = nn.Linear(rank, base.out_features, bias=False)
        nn.init.zeros_(self.lora_up.weight)

    def forward(self, x):
        return self.base(x) + self.lora_up(self.lora_down(x.to(self.lora_down.weight.dtype))).to(x.dtype)


class TinyUNet(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.to_q, self.to_v = nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        return self.out(torch.tanh(self.to_q(x)) * self.to_v(x))


class ValidationPipeline:
    def __init__(self, unet):
        self.unet = unet

    def to(self, device, dtype=None):
        self.unet.to(device, dtype=dtype)  # root-cause
        return self

    @torch.no_grad()
    def __call__(self, latents):
        return self.unet(latents)


def add_lora(unet):
    for name in ("to_q", "to_v"):
        setattr(unet, name, LoRALinear(getattr(unet, name)))
    for n, p in unet.named_parameters():
        p.requires_grad_("lora" in n)
        if "lora" in n:
            p.data = p.data.float()
    return unet


def log_validation(unet, device, torch_dtype):
    pipeline = ValidationPipeline(unet).to(device, dtype=torch_dtype)
    sample = pipeline(torch.randn(2, 32, device=device, dtype=torch_dtype))
    print(f"validation sample std {sample.float().std().item():.4f}")


def main(args):
    device = torch.device("cpu")
    weight_dtype = torch.float16
    unet = add_lora(TinyUNet().to(device, dtype=weight_dtype))
    params = [p for p in unet.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=args.learning_rate)
    scaler = torch.amp.GradScaler(device.type)
    for step in range(args.max_train_steps):
        latents = torch.randn(4, 32, device=device)
        with torch.autocast(device.type, dtype=torch.float16):
            loss = (unet(latents.to(weight_dtype)).float() - latents).pow(2).mean()
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)  # fails-here
        torch.nn.utils.clip_grad_norm_(params, args.max_grad_norm)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print(f"step {step}: loss {loss.item():.4f}")
        if (step + 1) % args.validation_steps == 0:
            log_validation(unet, device, weight_dtype)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--learning_rate", type=float, default=1e-4)
    p.add_argument("--max_train_steps", type=int, default=5)
    p.add_argument("--validation_steps", type=int, default=2)
    p.add_argument("--max_grad_norm", type=float, default=1.0)
    main(p.parse_args([]))
