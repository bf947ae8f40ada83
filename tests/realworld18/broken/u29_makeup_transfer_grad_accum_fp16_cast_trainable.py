"""Makeup-transfer training script with --mixed_precision fp16 and gradient accumulation: prepare_models() converts every module, including the trainable detail encoder, with .to(weight_dtype); after the accumulation window the GradScaler unscale before clipping refuses the float16 gradients
source: https://github.com/Xiaojiu-z/Stable-Makeup/issues/13
reported-error: when i try to use fp16 to train the model, it appears `ValueError: Attempting to unscale FP16 gradients`
outcome: ValueError: Attempting to unscale FP16 gradients. at line 59
root-cause: line 38
expect: DG014
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class DetailEncoder(nn.Module):
    def __init__(self, c=3, d=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(c, d, 3, padding=1), nn.ReLU(), nn.Conv2d(d, d, 3, stride=2, padding=1))

    def forward(self, x):
        return self.net(x)


class Generator(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.up = nn.Sequential(nn.ConvTranspose2d(d, 8, 2, stride=2), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))

    def forward(self, feats):
        return torch.tanh(self.up(feats))


def prepare_models(args):
    weight_dtype = {"fp16": torch.float16, "no": torch.float32}[args.mixed_precision]
    encoder, generator = DetailEncoder(), Generator()
    generator.requires_grad_(False)
    for module in (encoder, generator):
        module.to(dtype=weight_dtype)  # root-cause
    return encoder, generator, weight_dtype


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mixed_precision", default="fp16")
    ap.add_argument("--gradient_accumulation_steps", type=int, default=2)
    ap.add_argument("--max_grad_norm", type=float, default=1.0)
    args = ap.parse_args([])
    encoder, generator, weight_dtype = prepare_models(args)
    optimizer = torch.optim.AdamW(encoder.parameters(), lr=1e-4)
    scaler = torch.amp.GradScaler("cpu", enabled=args.mixed_precision == "fp16")
    for step in range(4):
        makeup = torch.rand(2, 3, 32, 32, dtype=weight_dtype)
        target = torch.rand(2, 3, 32, 32)
        with torch.autocast("cpu", dtype=torch.float16):
            out = generator(encoder(makeup))
        loss = F.l1_loss(out.float(), target) / args.gradient_accumulation_steps
        scaler.scale(loss).backward()
        if (step + 1) % args.gradient_accumulation_steps == 0:
            scaler.unscale_(optimizer)  # fails-here
            torch.nn.utils.clip_grad_norm_(encoder.parameters(), args.max_grad_norm)
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
