"""diffusers' train_text_to_image_lora.py of bv02 with the change the issue asks for: the upcast of the trainable LoRA parameters checks accelerator.mixed_precision (what the launcher chose) instead of args.mixed_precision (default None), so the LoRA parameters are float32 on top of the float16 frozen UNet, the GradScaler unscales their float32 gradients for the clipping and the LoRA weights train; the float16 frozen models, the LoRA forward that casts its input to the adapter dtype and the .float() loss are kept
source: https://github.com/huggingface/diffusers/issues/6363
reported-error: (none filed; the fixed situation of bv02)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import math
import os
from contextlib import contextmanager

import torch
import torch.nn as nn
import torch.nn.functional as F

# `accelerate launch --mixed_precision="fp16" train_text_to_image_lora.py ...` exports the launcher's choice
os.environ.setdefault("ACCELERATE_MIXED_PRECISION", "fp16")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="Simple example of a training script.")
    parser.add_argument("--mixed_precision", type=str, default=None, choices=["no", "fp16", "bf16"],
                        help="Default to the value of accelerate config of the current system or the flag passed "
                             "with the `accelerate.launch` command. Use this argument to override the accelerate config.")
    parser.add_argument("--rank", type=int, default=4)
    parser.add_argument("--learning_rate", type=float, default=1e-4)
    parser.add_argument("--adam_beta1", type=float, default=0.9)
    parser.add_argument("--adam_beta2", type=float, default=0.999)
    parser.add_argument("--adam_weight_decay", type=float, default=1e-2)
    parser.add_argument("--adam_epsilon", type=float, default=1e-08)
    parser.add_argument("--max_grad_norm", default=1.0, type=float)
    parser.add_argument("--train_batch_size", type=int, default=2)
    parser.add_argument("--max_train_steps", type=int, default=4)
    parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


# ---- accelerate (re-typed subset) -----------------------------------------------------------
class AcceleratedOptimizer:
    def __init__(self, optimizer, scaler):
        self.optimizer, self.scaler = optimizer, scaler

    def step(self):
        if self.scaler is not None:
            self.scaler.step(self.optimizer)
            self.scaler.update()
        else:
            self.optimizer.step()

    def zero_grad(self):
        self.optimizer.zero_grad()


class Accelerator:
    def __init__(self, gradient_accumulation_steps=1, mixed_precision=None):
        self.mixed_precision = mixed_precision or os.environ.get("ACCELERATE_MIXED_PRECISION", "no")
        self.device = torch.device("cpu")
        self.scaler = torch.amp.GradScaler("cpu") if self.mixed_precision == "fp16" else None
        self.sync_gradients = True
        self._optimizers = []

    def prepare(self, optimizer):
        optimizer = AcceleratedOptimizer(optimizer, self.scaler)
        self._optimizers.append(optimizer)
        return optimizer

    @contextmanager
    def accumulate(self, model):
        yield

    def backward(self, loss):
        if self.scaler is not None:
            self.scaler.scale(loss).backward()
        else:
            loss.backward()

    def unscale_gradients(self):
        for opt in self._optimizers:
            self.scaler.unscale_(opt.optimizer)

    def clip_grad_norm_(self, parameters, max_norm):
        if self.mixed_precision == "fp16":
            self.unscale_gradients()
        return torch.nn.utils.clip_grad_norm_(parameters, max_norm)


# ---- peft (re-typed subset): LoRA layers are created in the dtype of the base layer ---------
class LoraConfig:
    def __init__(self, r, lora_alpha, init_lora_weights, target_modules):
        self.r, self.lora_alpha, self.target_modules = r, lora_alpha, target_modules


class LoraLinear(nn.Module):
    def __init__(self, base_layer, r, lora_alpha):
        super().__init__()
        self.base_layer = base_layer
        self.lora_A = nn.Linear(base_layer.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base_layer.out_features, bias=False)
        nn.init.normal_(self.lora_A.weight, std=1 / r)
        nn.init.zeros_(self.lora_B.weight)
        self.scaling = lora_alpha / r
        weight = base_layer.weight
        self.lora_A.to(weight.device, dtype=weight.dtype)
        self.lora_B.to(weight.device, dtype=weight.dtype)

    def forward(self, x):
        result = self.base_layer(x)
        torch_result_dtype = result.dtype
        x = x.to(self.lora_A.weight.dtype)
        result = result + self.lora_B(self.lora_A(x)) * self.scaling
        return result.to(torch_result_dtype)


def add_adapter(model, config):
    for name, module in list(model.named_modules()):
        if any(name == t or name.endswith("." + t) for t in config.target_modules):
            parent_name, _, child = name.rpartition(".")
            parent = model.get_submodule(parent_name)
            if isinstance(parent, nn.ModuleList):
                parent[int(child)] = LoraLinear(module, config.r, config.lora_alpha)
            else:
                setattr(parent, child, LoraLinear(module, config.r, config.lora_alpha))
    for n, p in model.named_parameters():
        p.requires_grad_("lora_" in n)


# ---- tiny stand-ins for the pipeline's models ------------------------------------------------
class DDPMScheduler:
    def __init__(self, num_train_timesteps=1000):
        self.num_train_timesteps = num_train_timesteps
        betas = torch.linspace(1e-4, 0.02, num_train_timesteps)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)

    def add_noise(self, original_samples, noise, timesteps):
        alphas_cumprod = self.alphas_cumprod.to(dtype=original_samples.dtype)
        sqrt_alpha_prod = alphas_cumprod[timesteps].sqrt().view(-1, 1, 1, 1)
        sqrt_one_minus = (1 - alphas_cumprod[timesteps]).sqrt().view(-1, 1, 1, 1)
        return sqrt_alpha_prod * original_samples + sqrt_one_minus * noise


class TinyVAE(nn.Module):
    scaling_factor = 0.18215

    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.SiLU(), nn.Conv2d(16, 8, 3, padding=1))

    def encode(self, x):
        mean, logvar = self.encoder(x).chunk(2, dim=1)
        return mean + torch.randn_like(mean) * (0.5 * logvar).exp()


class Attention(nn.Module):
    def __init__(self, dim, cross_dim):
        super().__init__()
        self.to_q, self.to_k, self.to_v = nn.Linear(dim, dim), nn.Linear(cross_dim, dim), nn.Linear(cross_dim, dim)
        self.to_out = nn.ModuleList([nn.Linear(dim, dim), nn.Dropout(0.0)])

    def forward(self, h, context):
        q, k, v = self.to_q(h), self.to_k(context), self.to_v(context)
        out = F.scaled_dot_product_attention(q, k, v)
        return self.to_out[1](self.to_out[0](out))


class TinyUNet(nn.Module):
    def __init__(self, ch=32, cross_dim=32):
        super().__init__()
        self.conv_in = nn.Conv2d(4, ch, 3, padding=1)
        self.time_proj = nn.Linear(ch, ch)
        self.attn = Attention(ch, cross_dim)
        self.conv_out = nn.Conv2d(ch, 4, 3, padding=1)

    def forward(self, sample, timestep, encoder_hidden_states):
        half = self.conv_in.out_channels // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half) / half)
        t_emb = torch.cat([torch.sin(timestep[:, None] * freqs), torch.cos(timestep[:, None] * freqs)], dim=1)
        h = self.conv_in(sample) + self.time_proj(t_emb.to(sample.dtype))[:, :, None, None]
        b, c, hh, ww = h.shape
        tokens = h.flatten(2).transpose(1, 2)
        tokens = tokens + self.attn(tokens, encoder_hidden_states)
        return self.conv_out(tokens.transpose(1, 2).reshape(b, c, hh, ww))


class TinyTextEncoder(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.embed, self.proj = nn.Embedding(vocab, dim), nn.Linear(dim, dim)

    def forward(self, input_ids):
        return (self.proj(self.embed(input_ids)),)


def main():
    args = parse_args()
    accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps,
                              mixed_precision=args.mixed_precision)
    torch.manual_seed(args.seed)
    noise_scheduler = DDPMScheduler()
    text_encoder, vae, unet = TinyTextEncoder(), TinyVAE(), TinyUNet()
    unet.requires_grad_(False)
    vae.requires_grad_(False)
    text_encoder.requires_grad_(False)

    weight_dtype = torch.float32
    if accelerator.mixed_precision == "fp16":
        weight_dtype = torch.float16
    elif accelerator.mixed_precision == "bf16":
        weight_dtype = torch.bfloat16

    for param in unet.parameters():
        param.requires_grad_(False)
    unet_lora_config = LoraConfig(r=args.rank, lora_alpha=args.rank, init_lora_weights="gaussian",
                                  target_modules=["to_k", "to_q", "to_v", "to_out.0"])

    # Move unet, vae and text_encoder to device and cast to weight_dtype
    unet.to(accelerator.device, dtype=weight_dtype)
    vae.to(accelerator.device, dtype=weight_dtype)
    text_encoder.to(accelerator.device, dtype=weight_dtype)

    # Add adapter and make sure the trainable params are in float32.
    add_adapter(unet, unet_lora_config)
    if accelerator.mixed_precision == "fp16":
        for param in unet.parameters():
            # only upcast trainable parameters (LoRA) into fp32
            if param.requires_grad:
                param.data = param.to(torch.float32)

    lora_layers = filter(lambda p: p.requires_grad, unet.parameters())
    optimizer = torch.optim.AdamW(lora_layers, lr=args.learning_rate, betas=(args.adam_beta1, args.adam_beta2),
                                  weight_decay=args.adam_weight_decay, eps=args.adam_epsilon)
    optimizer = accelerator.prepare(optimizer)

    g = torch.Generator().manual_seed(args.seed)
    for step in range(args.max_train_steps):
        batch = {"pixel_values": torch.rand(args.train_batch_size, 3, 16, 16, generator=g) * 2 - 1,
                 "input_ids": torch.randint(0, 100, (args.train_batch_size, 8), generator=g)}
        with accelerator.accumulate(unet):
            latents = vae.encode(batch["pixel_values"].to(dtype=weight_dtype)) * vae.scaling_factor
            noise = torch.randn_like(latents)
            bsz = latents.shape[0]
            timesteps = torch.randint(0, noise_scheduler.num_train_timesteps, (bsz,)).long()
            noisy_latents = noise_scheduler.add_noise(latents, noise, timesteps)
            encoder_hidden_states = text_encoder(batch["input_ids"])[0]
            target = noise
            model_pred = unet(noisy_latents, timesteps, encoder_hidden_states)
            loss = F.mse_loss(model_pred.float(), target.float(), reduction="mean")
            accelerator.backward(loss)
            if accelerator.sync_gradients:
                params_to_clip = lora_layers
                accelerator.clip_grad_norm_(params_to_clip, args.max_grad_norm)
            optimizer.step()
            optimizer.zero_grad()
        print(f"step {step}: train_loss {loss.item():.4f}")

    lora_dtypes = sorted({str(p.dtype) for n, p in unet.named_parameters() if "lora_" in n})
    print("LoRA parameter dtypes:", lora_dtypes)
    trained = sum(int(p.abs().sum() > 0) for n, p in unet.named_parameters() if "lora_B" in n)
    assert lora_dtypes == ["torch.float32"] and trained > 0, (lora_dtypes, trained)
    print(f"lora_B matrices updated: {trained}")


if __name__ == "__main__":
    main()
