"""Text-to-image LoRA fine-tuning script (diffusers train_text_to_image_lora-style) with mixed_precision="fp16": the LoRA adapters are injected into the denoiser first and the whole denoiser is then cast to weight_dtype=float16, so the only trainable parameters are float16 and GradScaler.unscale_ before gradient clipping refuses them
source: https://blog.gitcode.com/d9b5e80f44b8b069a13090612965e0a1.html
reported-error: ValueError: Attempting to unscale FP16 gradients (SDXL LoRA training with mixed precision fp16 and max_grad_norm gradient clipping)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 62
root-cause: line 52
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
        return self.base(x) + self.lora_up(self.lora_down(x))


class TinyDenoiser(nn.Module):
    def __init__(self, latent=64, text=32, hidden=128):
        super().__init__()
        self.to_q = nn.Linear(latent + text + 1, hidden)
        self.to_out = nn.Linear(hidden, latent)

    def forward(self, z, t, emb):
        h = torch.cat([z, emb, t[:, None].to(z.dtype)], 1)
        return self.to_out(torch.nn.functional.silu(self.to_q(h)))


def inject_lora(unet, rank):
    unet.requires_grad_(False)
    unet.to_q, unet.to_out = LoRALinear(unet.to_q, rank), LoRALinear(unet.to_out, rank)
    return [p for n, p in unet.named_parameters() if "lora" in n]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mixed_precision", default="fp16")
    p.add_argument("--max_grad_norm", type=float, default=1.0)
    p.add_argument("--rank", type=int, default=4)
    args = p.parse_args([])
    weight_dtype = torch.float16 if args.mixed_precision == "fp16" else torch.float32
    unet = TinyDenoiser()
    lora_layers = inject_lora(unet, args.rank)
    unet.to(dtype=weight_dtype)  # root-cause
    optimizer = torch.optim.AdamW(lora_layers, lr=1e-4)
    scaler = torch.amp.GradScaler("cpu", enabled=args.mixed_precision == "fp16")
    for step in range(3):
        latents = torch.randn(8, 64, dtype=weight_dtype)
        noise, t = torch.randn_like(latents), torch.randint(0, 1000, (8,))
        text_emb = torch.randn(8, 32, dtype=weight_dtype)
        pred = unet(latents + noise, t, text_emb)
        loss = nn.functional.mse_loss(pred.float(), noise.float())
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)  # fails-here
        torch.nn.utils.clip_grad_norm_(lora_layers, args.max_grad_norm)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
