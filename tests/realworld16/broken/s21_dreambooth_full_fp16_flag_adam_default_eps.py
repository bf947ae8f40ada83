"""DreamBooth-style fine-tuning script with --mixed_precision fp16 --full_fp16: get_model(args) casts the trainable denoiser to float16 when args.full_fp16 is set and get_optimizer(args, model) builds torch.optim.Adam with its default eps=1e-8 (0 in float16); the loss turns NaN after the first steps without any error
source: https://github.com/kohya-ss/sd-scripts/issues/430
reported-error: none raised (full_fp16 training + some optimizers gives loss=nan)
outcome: ok (silent: after the Adam steps at line 45 the float16 parameters become non-finite, printed as "step N: loss nan, non-finite params K" with K above 0)
root-cause: line 27
expect: DG012
"""
import argparse

import torch
import torch.nn as nn


def parse_args(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--mixed_precision", default="fp16")
    p.add_argument("--full_fp16", action="store_true")
    p.add_argument("--learning_rate", type=float, default=1e-3)
    p.add_argument("--max_train_steps", type=int, default=6)
    return p.parse_args(argv)


def get_model(args):
    torch.manual_seed(0)
    unet = nn.Sequential(nn.Linear(32, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 32))
    if args.mixed_precision == "fp16" and args.full_fp16:
        unet.to(torch.float16)  # root-cause
    return unet


def get_optimizer(args, model):
    return torch.optim.Adam(model.parameters(), lr=args.learning_rate)


def main(args):
    unet = get_model(args)
    optimizer = get_optimizer(args, unet)
    weight_dtype = next(unet.parameters()).dtype
    latents = torch.randn(64, 32).to(weight_dtype)
    noise = (torch.randn(64, 32) * 1e-2).to(weight_dtype)
    for step in range(args.max_train_steps):
        loss = (unet(latents) - noise).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
        bad = sum(int((~torch.isfinite(p)).sum()) for p in unet.parameters())
        print(f"step {step}: loss {loss.item():.4f}, non-finite params {bad}")


if __name__ == "__main__":
    main(parse_args(["--full_fp16"]))
