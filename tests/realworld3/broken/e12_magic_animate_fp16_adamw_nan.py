"""magic_animate_unofficial: whole model in fp16 (V100 OOM in fp32), AdamW with default adam_epsilon=1e-8 -> NaN after optimizer.step
source: https://github.com/jinxixiang/magic_animate_unofficial/issues/6
reported-error: silent (loss becomes NaN after optimizer.step)
outcome: ok (silent: fp16 params become NaN after optimizer.step; first bad line: step 1 loss nan nan params 6)
root-cause: line 35
expect: DG012
"""
import argparse

import torch
import torch.nn as nn


class UNet3DConditionModel(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.conv_in = nn.Conv2d(4, channels, 3, padding=1)
        self.time_proj = nn.Linear(1, channels)
        self.ref_attn = nn.Linear(channels, channels)   # only receives grads on reference frames
        self.conv_out = nn.Conv2d(channels, 4, 3, padding=1)

    def forward(self, latents, timesteps, use_reference=False):
        h = self.conv_in(latents) + self.time_proj(timesteps)[:, :, None, None]
        if use_reference:
            h = h + self.ref_attn(h.mean((2, 3)))[:, :, None, None]
        return self.conv_out(torch.relu(h))


def main(args):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    weight_dtype = torch.float16 if args.mixed_precision == "fp16" else torch.float32
    unet = UNet3DConditionModel().to(device, dtype=weight_dtype)
    optimizer = torch.optim.AdamW(
        unet.parameters(), lr=args.learning_rate, betas=(args.adam_beta1, args.adam_beta2),
        weight_decay=args.adam_weight_decay, eps=args.adam_epsilon)  # root-cause
    for step in range(args.max_train_steps):
        latents = torch.randn(2, 4, 8, 8, device=device, dtype=weight_dtype)
        noise = torch.randn_like(latents)
        timesteps = torch.rand(2, 1, device=device, dtype=weight_dtype)
        model_pred = unet(latents, timesteps, use_reference=(step % 4 == 3))
        loss = nn.functional.mse_loss(model_pred.float(), noise.float(), reduction="mean")
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        bad = sum(int(torch.isnan(p).any()) for p in unet.parameters())
        print("step", step, "loss", loss.item(), "nan params", bad)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mixed_precision", default="fp16")
    parser.add_argument("--learning_rate", type=float, default=1e-5)
    parser.add_argument("--adam_beta1", type=float, default=0.9)
    parser.add_argument("--adam_beta2", type=float, default=0.999)
    parser.add_argument("--adam_weight_decay", type=float, default=1e-2)
    parser.add_argument("--adam_epsilon", type=float, default=1e-08)
    parser.add_argument("--max_train_steps", type=int, default=6)
    main(parser.parse_args([]))
