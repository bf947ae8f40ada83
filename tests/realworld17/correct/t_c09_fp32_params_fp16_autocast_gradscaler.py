"""Fine-tuning with --fp16 done the mixed-precision way: parameters stay float32, the forward runs under torch.autocast("cpu", dtype=torch.float16), and GradScaler unscales float32 gradients
source: https://github.com/LambdaLabsML/examples/issues/37
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse

import torch
import torch.nn as nn


def train_step(model, batch, opt, scaler, use_amp):
    images, labels = batch
    with torch.autocast("cpu", dtype=torch.float16, enabled=use_amp):
        logits = model(images)
    loss = nn.functional.cross_entropy(logits.float(), labels)
    opt.zero_grad()
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt)
    scaler.update()
    return loss.item()


parser = argparse.ArgumentParser()
parser.add_argument("--fp16", action="store_true")
args = parser.parse_args(["--fp16"])
model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
scaler = torch.amp.GradScaler("cpu", enabled=args.fp16)
opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
for it in range(3):
    batch = (torch.rand(8, 3, 32, 32), torch.randint(0, 10, (8,)))
    print("iter", it, "loss", train_step(model, batch, opt, scaler, args.fp16))
