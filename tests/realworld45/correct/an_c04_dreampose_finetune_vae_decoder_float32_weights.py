"""Fine-tuning the Stable Diffusion VAE decoder for DreamPose (johannakarras/DreamPose finetune-vae.py as in an04: --mixed_precision fp16, accelerate Accelerator with its GradScaler, AdamW over the decoder parameters, clip_grad_norm_ each step) with the fix the issue thread converges on: only the frozen encoder is cast to weight_dtype, the trainable decoder keeps float32 weights (its latents are cast back with .float()), so the scaler unscales float32 gradients; the whole-VAE torch.save of the state dict is kept
source: https://github.com/johannakarras/DreamPose/issues/70
reported-error: (none filed; the fixed situation of an04)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import contextlib
import itertools
import math
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)


# ---- accelerate.Accelerator (re-typed: not installed; fp16 mixed precision = a GradScaler on the accelerator's device)
class Accelerator:
    def __init__(self, gradient_accumulation_steps=1, mixed_precision="no", log_with=None, logging_dir=None):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.mixed_precision = mixed_precision
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self.scaler = torch.amp.GradScaler(self.device.type) if mixed_precision == "fp16" else None
        self.sync_gradients = True
        self.is_main_process = True
        self.num_processes = 1
        self._optimizers = []

    def prepare(self, *objs):
        out = []
        for obj in objs:
            if isinstance(obj, nn.Module):
                obj = obj.to(self.device)
            if isinstance(obj, torch.optim.Optimizer):
                self._optimizers.append(obj)
            out.append(obj)
        return tuple(out)

    @contextlib.contextmanager
    def accumulate(self, model):
        yield

    def backward(self, loss):
        if self.scaler is not None:
            self.scaler.scale(loss).backward()
        else:
            loss.backward()

    def unscale_gradients(self):
        if self.scaler is not None:
            for opt in self._optimizers:
                self.scaler.unscale_(opt)

    def clip_grad_norm_(self, parameters, max_norm):
        self.unscale_gradients()
        return torch.nn.utils.clip_grad_norm_(parameters, max_norm)

    def step(self, optimizer):
        if self.scaler is not None:
            self.scaler.step(optimizer)
            self.scaler.update()
        else:
            optimizer.step()


# ---- diffusers AutoencoderKL (re-typed: a two-level conv encoder / decoder with a diagonal Gaussian latent)
class DiagonalGaussian:
    def __init__(self, moments):
        self.mean, self.logvar = moments.chunk(2, dim=1)

    def sample(self):
        return self.mean + torch.exp(0.5 * self.logvar.clamp(-30, 20)) * torch.randn_like(self.mean)


class Encoder(nn.Module):
    def __init__(self, ch=16, z=4):
        super().__init__()
        self.conv_in = nn.Conv2d(3, ch, 3, padding=1)
        self.down = nn.Conv2d(ch, ch, 3, stride=2, padding=1)
        self.norm = nn.GroupNorm(4, ch)
        self.conv_out = nn.Conv2d(ch, 2 * z, 3, padding=1)

    def forward(self, x):
        return self.conv_out(F.silu(self.norm(self.down(F.silu(self.conv_in(x))))))


class Decoder(nn.Module):
    def __init__(self, ch=16, z=4):
        super().__init__()
        self.conv_in = nn.Conv2d(z, ch, 3, padding=1)
        self.up = nn.ConvTranspose2d(ch, ch, 4, stride=2, padding=1)
        self.norm = nn.GroupNorm(4, ch)
        self.conv_out = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, z):
        return self.conv_out(F.silu(self.norm(self.up(F.silu(self.conv_in(z))))))


class DecoderOutput:
    def __init__(self, sample):
        self.sample = sample


class EncoderOutput:
    def __init__(self, latent_dist):
        self.latent_dist = latent_dist


class AutoencoderKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = Decoder()

    @classmethod
    def from_pretrained(cls, path, subfolder=None, revision=None):
        vae = cls()
        vae.load_state_dict(torch.load(os.path.join(path, subfolder, "diffusion_pytorch_model.bin")))
        return vae

    def encode(self, x):
        return EncoderOutput(DiagonalGaussian(self.encoder(x)))

    def decode(self, z):
        return DecoderOutput(self.decoder(z))


# ---- datasets/train_vae_dataset.py (re-typed: synthetic UBC-fashion frames in memory)
class DreamBoothDataset(Dataset):
    def __init__(self, instance_data_root, size=32, n=8):
        g = torch.Generator().manual_seed(1)
        self.frames = torch.rand(n, 3, size, size, generator=g) * 2 - 1
        self.poses = torch.rand(n, 2, size // 8, size // 8, generator=g)

    def __len__(self):
        return len(self.frames)

    def __getitem__(self, i):
        return {"frame_j": self.frames[i], "pose_j": self.poses[i]}


# ---- utils/parse_args.py (reduced)
def parse_args(argv):
    p = argparse.ArgumentParser()
    p.add_argument("--pretrained_model_name_or_path", required=True)
    p.add_argument("--instance_data_dir", default="demo/sample/train")
    p.add_argument("--output_dir", required=True)
    p.add_argument("--mixed_precision", default="no", choices=["no", "fp16", "bf16"])
    p.add_argument("--train_batch_size", type=int, default=4)
    p.add_argument("--learning_rate", type=float, default=5e-6)
    p.add_argument("--adam_beta1", type=float, default=0.9)
    p.add_argument("--adam_beta2", type=float, default=0.999)
    p.add_argument("--adam_weight_decay", type=float, default=1e-2)
    p.add_argument("--adam_epsilon", type=float, default=1e-08)
    p.add_argument("--max_grad_norm", type=float, default=1.0)
    p.add_argument("--num_train_epochs", type=int, default=1)
    p.add_argument("--max_train_steps", type=int, default=None)
    p.add_argument("--gradient_accumulation_steps", type=int, default=1)
    p.add_argument("--resolution", type=int, default=32)
    p.add_argument("--epoch", type=int, default=0)
    return p.parse_args(argv)


# ---- finetune-vae.py
def main(args):
    accelerator = Accelerator(
        gradient_accumulation_steps=args.gradient_accumulation_steps,
        mixed_precision=args.mixed_precision,
        log_with="tensorboard",
        logging_dir=os.path.join(args.output_dir, "logs"),
    )

    vae = AutoencoderKL.from_pretrained(args.pretrained_model_name_or_path, subfolder="vae")

    vae.requires_grad_(False)
    vae_trainable_params = []
    for name, param in vae.named_parameters():
        if 'decoder' in name:
            param.requires_grad = True
            vae_trainable_params.append(param)
    print(f"VAE total params = {len(list(vae.named_parameters()))}, trainable params = {len(vae_trainable_params)}")

    optimizer = torch.optim.AdamW(
        itertools.chain(vae_trainable_params),
        lr=args.learning_rate,
        betas=(args.adam_beta1, args.adam_beta2),
        weight_decay=args.adam_weight_decay,
        eps=args.adam_epsilon,
    )

    train_dataset = DreamBoothDataset(instance_data_root=args.instance_data_dir, size=args.resolution)

    def collate_fn(examples):
        frame_j = torch.stack([example["frame_j"] for example in examples])
        poses = torch.stack([example["pose_j"] for example in examples])
        frame_j = frame_j.to(memory_format=torch.contiguous_format).float()
        poses = poses.to(memory_format=torch.contiguous_format).float()
        return {"target_frame": frame_j, "poses": poses}

    train_dataloader = DataLoader(train_dataset, batch_size=args.train_batch_size, shuffle=True, collate_fn=collate_fn)
    num_update_steps_per_epoch = math.ceil(len(train_dataloader) / args.gradient_accumulation_steps)
    if args.max_train_steps is None:
        args.max_train_steps = args.num_train_epochs * num_update_steps_per_epoch
    lr_scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0)

    vae, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(vae, optimizer, train_dataloader, lr_scheduler)

    weight_dtype = torch.float32
    if accelerator.mixed_precision == "fp16":
        weight_dtype = torch.float16
    elif accelerator.mixed_precision == "bf16":
        weight_dtype = torch.bfloat16

    # only the frozen encoder runs in weight_dtype; the trained decoder keeps float32 weights for the GradScaler
    vae.encoder.to(accelerator.device, dtype=weight_dtype)

    global_step = 0
    for epoch in range(args.epoch, args.num_train_epochs):
        vae.train()
        for step, batch in enumerate(train_dataloader):
            with accelerator.accumulate(vae):
                target = batch["target_frame"].to(accelerator.device)
                latents = vae.encode(target.to(dtype=weight_dtype)).latent_dist.sample()
                latents = latents * 0.18215
                latents = 1 / 0.18215 * latents
                pred_images = vae.decode(latents.float()).sample
                pred_images = pred_images.clamp(-1, 1)
                loss = F.mse_loss(pred_images.float(), target.clamp(-1, 1).float(), reduction="mean")

                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    params_to_clip = itertools.chain(vae.parameters())
                    accelerator.clip_grad_norm_(params_to_clip, args.max_grad_norm)
                accelerator.step(optimizer)
                lr_scheduler.step()
                optimizer.zero_grad()
            global_step += 1
            print(f"step {global_step} loss {loss.item():.4f}")
            if global_step >= args.max_train_steps:
                break

    model_path = os.path.join(args.output_dir, f"vae_{epoch}.pth")
    torch.save(vae.state_dict(), model_path)
    print("Saved final model to", model_path)


if __name__ == "__main__":
    work = tempfile.mkdtemp()
    os.makedirs(os.path.join(work, "sd-v1-5", "vae"))
    torch.save(AutoencoderKL().state_dict(), os.path.join(work, "sd-v1-5", "vae", "diffusion_pytorch_model.bin"))
    args = parse_args(["--pretrained_model_name_or_path", os.path.join(work, "sd-v1-5"),
                       "--output_dir", os.path.join(work, "results"), "--mixed_precision", "fp16"])
    os.makedirs(args.output_dir, exist_ok=True)
    main(args)
