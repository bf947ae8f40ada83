"""Resuming an open_clip training run (mlfoundations/open_clip src/training/main.py: parse_args, init_distributed_device, create_model_and_transforms, AdamW over gain_or_bias_params / rest_params groups, resume from a checkpoint loaded with map_location='cpu', train_one_epoch with ClipLoss) with the workaround posted in open_clip#140 for torch 1.12's resume bug: every param group gets capturable=True after optimizer.load_state_dict, and the resumed run is on a machine without CUDA, so the first AdamW step refuses CPU parameters
source: https://github.com/mlfoundations/open_clip/issues/140
reported-error: resume broken in torch 1.12 (hitting pytorch/pytorch#80809: AssertionError: If capturable=False, state_steps should not be CUDA tensors); workaround posted: for g in optimizer.param_groups: g['capturable'] = True after main.py#L201
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at line 79
root-cause: line 120
expect: DG016
"""
import argparse
import logging
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim


# ---- training/params.py (the options this run uses)
def parse_args(args):
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="RN50-toy")
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--beta1", type=float, default=0.9)
    parser.add_argument("--beta2", type=float, default=0.98)
    parser.add_argument("--eps", type=float, default=1e-6)
    parser.add_argument("--wd", type=float, default=0.2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--precision", choices=["amp", "fp32"], default="fp32")
    parser.add_argument("--resume", type=str, default=None)
    parser.add_argument("--logs", type=str, default="./logs/")
    return parser.parse_args(args)


# ---- training/distributed.py
def init_distributed_device(args):
    args.distributed = False
    args.device = 'cuda:0' if torch.cuda.is_available() else 'cpu'
    return torch.device(args.device)


# ---- open_clip/model.py + factory.py (a two-tower stand-in for create_model_and_transforms)
class CLIP(nn.Module):
    def __init__(self, embed_dim=32, vocab_size=256):
        super().__init__()
        self.visual = nn.Sequential(nn.Flatten(), nn.Linear(3 * 16 * 16, 64), nn.GELU(), nn.Linear(64, embed_dim))
        self.token_embedding = nn.EmbeddingBag(vocab_size, 64)
        self.ln_final = nn.LayerNorm(64)
        self.text_projection = nn.Parameter(torch.randn(64, embed_dim) * 64 ** -0.5)
        self.logit_scale = nn.Parameter(torch.ones([]) * np.log(1 / 0.07))

    def forward(self, image, text):
        image_features = F.normalize(self.visual(image), dim=-1)
        text_features = F.normalize(self.ln_final(self.token_embedding(text)) @ self.text_projection, dim=-1)
        return image_features, text_features, self.logit_scale.exp()


def create_model_and_transforms(model_name, device):
    return CLIP().to(device), None, None


class ClipLoss(nn.Module):
    def forward(self, image_features, text_features, logit_scale):
        logits_per_image = logit_scale * image_features @ text_features.T
        labels = torch.arange(logits_per_image.shape[0], device=image_features.device)
        return (F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_image.T, labels)) / 2


# ---- training/train.py
def train_one_epoch(model, data, loss, epoch, optimizer, scaler, args):
    model.train()
    for i, (images, texts) in enumerate(data):
        images, texts = images.to(args.device), texts.to(args.device)
        optimizer.zero_grad()
        total_loss = loss(*model(images, texts))
        total_loss.backward()
        optimizer.step()  # fails-here
        logging.info(f"Train Epoch: {epoch} [{i}] Loss: {total_loss.item():.4f}")


def get_data(args, num_samples=64):
    images, texts = torch.randn(num_samples, 3, 16, 16), torch.randint(0, 256, (num_samples, 12))
    return [(images[i:i + args.batch_size], texts[i:i + args.batch_size]) for i in range(0, num_samples, args.batch_size)]


# ---- training/main.py
def main(args):
    args = parse_args(args)
    device = init_distributed_device(args)
    args.checkpoint_path = args.logs
    model, preprocess_train, preprocess_val = create_model_and_transforms(args.model, device=device)

    exclude = lambda n, p: p.ndim < 2 or "bn" in n or "ln" in n or "bias" in n or 'logit_scale' in n
    include = lambda n, p: not exclude(n, p)
    named_parameters = list(model.named_parameters())
    gain_or_bias_params = [p for n, p in named_parameters if exclude(n, p) and p.requires_grad]
    rest_params = [p for n, p in named_parameters if include(n, p) and p.requires_grad]
    optimizer = optim.AdamW(
        [
            {"params": gain_or_bias_params, "weight_decay": 0.},
            {"params": rest_params, "weight_decay": args.wd},
        ],
        lr=args.lr,
        betas=(args.beta1, args.beta2),
        eps=args.eps,
    )
    scaler = torch.amp.GradScaler("cuda") if args.precision == "amp" else None

    # optionally resume from a checkpoint
    start_epoch = 0
    if args.resume is not None:
        checkpoint = torch.load(args.resume, map_location='cpu')
        start_epoch = checkpoint["epoch"]
        model.load_state_dict(checkpoint["state_dict"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        # torch 1.12 resume workaround from open_clip#140 (pytorch/pytorch#80809)
        for g in optimizer.param_groups:
            g['capturable'] = True  # root-cause
        logging.info(f"=> resuming checkpoint '{args.resume}' (epoch {start_epoch})")

    data = get_data(args)
    loss = ClipLoss()
    for epoch in range(start_epoch, args.epochs):
        train_one_epoch(model, data, loss, epoch, optimizer, scaler, args)
        checkpoint_dict = {"epoch": epoch + 1, "name": args.model,
                           "state_dict": model.state_dict(), "optimizer": optimizer.state_dict()}
        torch.save(checkpoint_dict, os.path.join(args.checkpoint_path, f"epoch_{epoch + 1}.pt"))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    torch.manual_seed(0)
    logs = tempfile.mkdtemp()
    main(["--logs", logs, "--epochs", "1"])  # the interrupted run: one epoch, checkpoint epoch_1.pt
    main(["--logs", logs, "--epochs", "2", "--resume", os.path.join(logs, "epoch_1.pt")])  # the resumed run
