"""DreamBooth-style fine-tuning with --mixed_precision fp16: the trainable UNet is cast to weight_dtype (float16) like the frozen VAE/text encoder, so the GradScaler step finds FP16 gradients
source: https://github.com/ShivamShrirao/diffusers/issues/131
reported-error: ValueError: Attempting to unscale FP16 gradients.
outcome: ValueError: Attempting to unscale FP16 gradients. at line 69
root-cause: line 54
expect: DG014
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyUNet(nn.Module):
    def __init__(self, ch=4, hidden=32, cond_dim=16):
        super().__init__()
        self.inp = nn.Conv2d(ch, hidden, 3, padding=1)
        self.cond = nn.Linear(cond_dim, hidden)
        self.out = nn.Conv2d(hidden, ch, 3, padding=1)

    def forward(self, noisy_latents, timesteps, encoder_hidden_states):
        h = F.silu(self.inp(noisy_latents) + self.cond(encoder_hidden_states)[:, :, None, None])
        return self.out(h)


def parse_args():
    parser = argparse.ArgumentParser(description="Simple example of a training script.")
    parser.add_argument("--mixed_precision", type=str, default="fp16", choices=["no", "fp16", "bf16"])
    parser.add_argument("--learning_rate", type=float, default=5e-6)
    parser.add_argument("--max_train_steps", type=int, default=4)
    parser.add_argument("--max_grad_norm", type=float, default=1.0)
    parser.add_argument("--train_batch_size", type=int, default=2)
    return parser.parse_args()


def main(args):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    text_encoder = nn.Embedding(100, 16)  # frozen
    vae_encoder = nn.Conv2d(3, 4, 8, stride=8)  # frozen
    unet = TinyUNet()
    text_encoder.requires_grad_(False)
    vae_encoder.requires_grad_(False)

    weight_dtype = torch.float32
    if args.mixed_precision == "fp16":
        weight_dtype = torch.float16
    elif args.mixed_precision == "bf16":
        weight_dtype = torch.bfloat16

    # Move text_encode and vae to gpu. For mixed precision training we cast them to half-precision
    vae_encoder.to(device, dtype=weight_dtype)
    text_encoder.to(device, dtype=weight_dtype)
    unet.to(device, dtype=weight_dtype)  # root-cause

    optimizer = torch.optim.AdamW(unet.parameters(), lr=args.learning_rate, eps=1e-4)
    scaler = torch.amp.GradScaler(device.type, enabled=args.mixed_precision == "fp16")
    for step in range(args.max_train_steps):
        pixel_values = torch.rand(args.train_batch_size, 3, 64, 64, device=device, dtype=weight_dtype)
        input_ids = torch.randint(0, 100, (args.train_batch_size,), device=device)
        latents = vae_encoder(pixel_values) * 0.18215
        noise = torch.randn_like(latents)
        timesteps = torch.randint(0, 1000, (args.train_batch_size,), device=device)
        noisy_latents = latents + noise
        encoder_hidden_states = text_encoder(input_ids)
        model_pred = unet(noisy_latents, timesteps, encoder_hidden_states)
        loss = F.mse_loss(model_pred.float(), noise.float(), reduction="mean")
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)  # fails-here
        torch.nn.utils.clip_grad_norm_(unet.parameters(), args.max_grad_norm)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print("step", step, loss.item())


if __name__ == "__main__":
    main(parse_args())
