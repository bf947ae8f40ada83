"""Image-classifier fine-tuning with "--fp16": setup_precision(args, model) both calls model.half() and creates a GradScaler, so the scaler sees float16 gradients at scaler.step() inside train_step
source: https://github.com/LambdaLabsML/examples/issues/37
reported-error: how to train with fp16? when I train with fp16 I get an error (ValueError: Attempting to unscale FP16 gradients.)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 33
root-cause: line 21
expect: DG014
"""
import argparse

import torch
import torch.nn as nn


def build_model(n_classes=10):
    return nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, n_classes))


def setup_precision(args, model):
    scaler = None
    if args.fp16:
        model = model.half()  # root-cause
        scaler = torch.amp.GradScaler("cpu")
    return model, scaler


def train_step(model, batch, opt, scaler):
    images, labels = batch
    images = images.to(next(model.parameters()).dtype)
    loss = nn.functional.cross_entropy(model(images).float(), labels)
    opt.zero_grad()
    if scaler is not None:
        scaler.scale(loss).backward()
        scaler.step(opt)  # fails-here
        scaler.update()
    else:
        loss.backward()
        opt.step()
    return loss.item()


parser = argparse.ArgumentParser()
parser.add_argument("--fp16", action="store_true")
parser.add_argument("--lr", type=float, default=1e-3)
args = parser.parse_args(["--fp16"])
model, scaler = setup_precision(args, build_model())
opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
for it in range(3):
    batch = (torch.rand(8, 3, 32, 32), torch.randint(0, 10, (8,)))
    print("iter", it, "loss", train_step(model, batch, opt, scaler))
