"""open_clip training (mlfoundations/open_clip src/training/main.py) launched with --precision amp_bf16 instead of pure_bf16: create_model keeps the CLIP in float32, get_autocast gives a bfloat16 autocast for the forward and the loss, and AdamW over the gain_or_bias / rest param groups updates float32 weights, so the LayerNorm gains and the logit scale move (the pure_bf16 branch of create_model and the bfloat16 autocast stay in the code)
source: https://github.com/mlfoundations/open_clip/blob/43cf086a6a21a40c99c37b3d8cc5a73726f3226b/src/training/main.py
reported-error: (none filed; the fixed situation of af05)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import math
from collections import OrderedDict
from contextlib import suppress

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim

# ---- open_clip/model.py + transformer.py (CLIP at toy size: a ViT image tower and a causal text tower)
class ResidualAttentionBlock(nn.Module):
    def __init__(self, d_model, n_head, mlp_ratio=4.0):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, n_head, batch_first=True)
        self.ln_2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(OrderedDict([
            ("c_fc", nn.Linear(d_model, int(d_model * mlp_ratio))), ("gelu", nn.GELU()),
            ("c_proj", nn.Linear(int(d_model * mlp_ratio), d_model))]))

    def forward(self, x, attn_mask=None):
        y = self.ln_1(x)
        x = x + self.attn(y, y, y, need_weights=False, attn_mask=attn_mask)[0]
        return x + self.mlp(self.ln_2(x))


class Transformer(nn.Module):
    def __init__(self, width, layers, heads):
        super().__init__()
        self.resblocks = nn.ModuleList([ResidualAttentionBlock(width, heads) for _ in range(layers)])

    def forward(self, x, attn_mask=None):
        for r in self.resblocks:
            x = r(x, attn_mask=attn_mask)
        return x


class VisionTransformer(nn.Module):
    def __init__(self, image_size, patch_size, width, layers, heads, output_dim):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, kernel_size=patch_size, stride=patch_size, bias=False)
        scale = width ** -0.5
        self.class_embedding = nn.Parameter(scale * torch.randn(width))
        self.positional_embedding = nn.Parameter(scale * torch.randn((image_size // patch_size) ** 2 + 1, width))
        self.ln_pre = nn.LayerNorm(width)
        self.transformer = Transformer(width, layers, heads)
        self.ln_post = nn.LayerNorm(width)
        self.proj = nn.Parameter(scale * torch.randn(width, output_dim))

    def forward(self, x):
        x = self.conv1(x).flatten(2).permute(0, 2, 1)
        x = torch.cat([self.class_embedding.to(x.dtype) + torch.zeros(x.shape[0], 1, x.shape[-1], dtype=x.dtype, device=x.device), x], dim=1)
        x = self.ln_pre(x + self.positional_embedding.to(x.dtype))
        x = self.transformer(x)
        return self.ln_post(x[:, 0, :]) @ self.proj


class CLIP(nn.Module):
    def __init__(self, embed_dim, vision_cfg, text_cfg, output_dict=False):
        super().__init__()
        self.output_dict = output_dict
        self.visual = VisionTransformer(output_dim=embed_dim, **vision_cfg)
        self.context_length = text_cfg["context_length"]
        self.token_embedding = nn.Embedding(text_cfg["vocab_size"], text_cfg["width"])
        self.positional_embedding = nn.Parameter(torch.empty(self.context_length, text_cfg["width"]).normal_(std=0.01))
        self.transformer = Transformer(text_cfg["width"], text_cfg["layers"], text_cfg["heads"])
        self.ln_final = nn.LayerNorm(text_cfg["width"])
        self.text_projection = nn.Parameter(torch.empty(text_cfg["width"], embed_dim).normal_(std=text_cfg["width"] ** -0.5))
        self.logit_scale = nn.Parameter(torch.ones([]) * np.log(1 / 0.07))
        self.register_buffer('attn_mask', torch.empty(self.context_length, self.context_length).fill_(float("-inf")).triu_(1), persistent=False)

    def encode_image(self, image, normalize=False):
        features = self.visual(image)
        return F.normalize(features, dim=-1) if normalize else features

    def encode_text(self, text, normalize=False):
        cast_dtype = self.transformer.resblocks[0].mlp.c_fc.weight.dtype
        x = self.token_embedding(text).to(cast_dtype)
        x = x + self.positional_embedding.to(cast_dtype)
        x = self.transformer(x, attn_mask=self.attn_mask.to(cast_dtype))
        x = self.ln_final(x)
        x = x[torch.arange(x.shape[0]), text.argmax(dim=-1)] @ self.text_projection
        return F.normalize(x, dim=-1) if normalize else x

    def forward(self, image=None, text=None):
        image_features = self.encode_image(image, normalize=True) if image is not None else None
        text_features = self.encode_text(text, normalize=True) if text is not None else None
        if self.output_dict:
            return {"image_features": image_features, "text_features": text_features, "logit_scale": self.logit_scale.exp()}
        return image_features, text_features, self.logit_scale.exp()


def get_input_dtype(precision: str):
    input_dtype = None
    if precision in ('bf16', 'pure_bf16'):
        input_dtype = torch.bfloat16
    elif precision in ('fp16', 'pure_fp16'):
        input_dtype = torch.float16
    return input_dtype


# ---- open_clip/factory.py (model configs and pretrained weights replaced by one toy ViT config)
_MODEL_CONFIGS = {"ViT-B-32": dict(embed_dim=32, vision_cfg=dict(image_size=32, patch_size=8, width=32, layers=2, heads=2),
                                   text_cfg=dict(context_length=16, vocab_size=100, width=32, heads=2, layers=2))}


def create_model(model_name, pretrained=None, precision='fp32', device='cpu', output_dict=None):
    model = CLIP(**_MODEL_CONFIGS[model_name], output_dict=bool(output_dict))
    if precision in ("pure_fp16", "pure_bf16"):
        dtype = torch.float16 if 'fp16' in precision else torch.bfloat16
        model.to(device=device, dtype=dtype)
    else:
        model.to(device=device)
    return model


def tokenize(texts, context_length=16):
    out = torch.zeros(len(texts), context_length, dtype=torch.long)
    for i, t in enumerate(texts):
        ids = [1 + (sum(map(ord, w)) % 97) for w in t.split()][:context_length - 2]
        out[i, :len(ids) + 2] = torch.tensor([98] + ids + [99])
    return out


# ---- open_clip/loss.py
class ClipLoss(nn.Module):
    def forward(self, image_features, text_features, logit_scale, output_dict=False):
        logits_per_image = logit_scale * image_features @ text_features.T
        labels = torch.arange(logits_per_image.shape[0], device=image_features.device, dtype=torch.long)
        total_loss = (F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_image.T, labels)) / 2
        return {"contrastive_loss": total_loss} if output_dict else total_loss


# ---- training/precision.py, scheduler.py, params.py
def get_autocast(precision):
    if precision == 'amp':
        return torch.cuda.amp.autocast
    elif precision == 'amp_bfloat16' or precision == 'amp_bf16':
        return lambda: torch.cuda.amp.autocast(dtype=torch.bfloat16)
    else:
        return suppress


def assign_learning_rate(optimizer, new_lr):
    for param_group in optimizer.param_groups:
        param_group["lr"] = new_lr


def cosine_lr(optimizer, base_lr, warmup_length, steps):
    def _lr_adjuster(step):
        if step < warmup_length:
            lr = base_lr * (step + 1) / warmup_length
        else:
            e = step - warmup_length
            es = steps - warmup_length
            lr = 0.5 * (1 + np.cos(np.pi * e / es)) * base_lr
        assign_learning_rate(optimizer, lr)
        return lr
    return _lr_adjuster


def get_default_params(model_name):
    model_name = model_name.lower()
    if "vit" in model_name:
        return {"lr": 5.0e-4, "beta1": 0.9, "beta2": 0.98, "eps": 1.0e-6}
    else:
        return {"lr": 5.0e-4, "beta1": 0.9, "beta2": 0.999, "eps": 1.0e-8}


def parse_args(args):
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="RN50")
    parser.add_argument("--precision", choices=["amp", "amp_bf16", "amp_bfloat16", "bf16", "fp16", "pure_bf16", "pure_fp16", "fp32"], default="amp")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=32)
    parser.add_argument("--lr", type=float, default=None)
    parser.add_argument("--beta1", type=float, default=None)
    parser.add_argument("--beta2", type=float, default=None)
    parser.add_argument("--eps", type=float, default=None)
    parser.add_argument("--wd", type=float, default=0.2)
    parser.add_argument("--warmup", type=int, default=10000)
    parser.add_argument("--device", type=str, default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args(args)
    default_params = get_default_params(args.model)
    for name, val in default_params.items():
        if getattr(args, name) is None:
            setattr(args, name, val)
    return args


# ---- training/data.py (synthetic image-text pairs instead of webdataset/CSV)
def get_data(args, n=64):
    g = torch.Generator().manual_seed(0)
    images = torch.rand(n, 3, 32, 32, generator=g)
    texts = tokenize([f"a photo of a {w}" for w in np.random.default_rng(0).choice(["cat", "dog", "car", "tree", "boat"], n)])
    ds = torch.utils.data.TensorDataset(images, texts)
    return {"train": torch.utils.data.DataLoader(ds, batch_size=args.batch_size, shuffle=True, drop_last=True)}


# ---- training/train.py
def train_one_epoch(model, data, loss, epoch, optimizer, scaler, scheduler, args):
    device = torch.device(args.device)
    autocast = get_autocast(args.precision)
    input_dtype = get_input_dtype(args.precision)

    model.train()
    dataloader = data['train']
    num_batches_per_epoch = len(dataloader)
    for i, batch in enumerate(dataloader):
        step = num_batches_per_epoch * epoch + i
        scheduler(step)

        images, texts = batch
        images = images.to(device=device, dtype=input_dtype, non_blocking=True)
        texts = texts.to(device=device, non_blocking=True)

        optimizer.zero_grad()
        with autocast():
            model_out = model(images, texts)
            losses = loss(**model_out, output_dict=True)
            total_loss = sum(losses.values())
        if scaler is not None:
            scaler.scale(total_loss).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            total_loss.backward()
            optimizer.step()

        # Note: we clamp to 4.6052 = ln(100), as in the original paper.
        with torch.no_grad():
            model.logit_scale.clamp_(0, math.log(100))
    print(f"Train Epoch: {epoch} Loss: {total_loss.item():.5f} LR: {optimizer.param_groups[0]['lr']:.6f}")


# ---- training/main.py
def main(args):
    args = parse_args(args)
    torch.manual_seed(0)
    device = args.device
    model = create_model(args.model, precision=args.precision, device=device, output_dict=True)
    gains_before = {n: p.detach().clone() for n, p in model.named_parameters() if "ln" in n and n.endswith("weight")}
    scale_before = model.logit_scale.detach().clone()

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
    scaler = torch.amp.GradScaler(device) if args.precision == "amp" else None

    data = get_data(args)
    total_steps = len(data["train"]) * args.epochs
    scheduler = cosine_lr(optimizer, args.lr, args.warmup, total_steps)
    loss = ClipLoss()
    for epoch in range(args.epochs):
        train_one_epoch(model, data, loss, epoch, optimizer, scaler, scheduler, args)

    moved = sum(int(not torch.equal(p, gains_before[n])) for n, p in model.named_parameters() if n in gains_before)
    print(f"after {total_steps} steps: {moved} of {len(gains_before)} LayerNorm gains moved, "
          f"logit_scale moved: {not torch.equal(model.logit_scale, scale_before)}")


if __name__ == "__main__":
    main(["--model", "ViT-B-32", "--precision", "amp_bf16", "--batch-size", "16", "--epochs", "3", "--warmup", "4"])
