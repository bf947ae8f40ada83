"""diffusers' train_dreambooth_lora_sdxl.py of bv06 with the fix of PR #10889: log_validation moves the pipeline with pipeline.to(accelerator.device) and leaves the dtypes of the shared training modules alone (autocast handles the validation forward), so the LoRA parameters stay float32 across validations and every epoch's gradient clipping unscales float32 gradients; the float16 frozen UNet, the float32 LoRA upcast, the validation autocast and the .float() loss are kept
source: https://github.com/huggingface/diffusers/issues/10752
reported-error: (none filed; the fixed situation of bv06)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import math
import os
from contextlib import contextmanager, nullcontext

import torch
import torch.nn as nn
import torch.nn.functional as F



def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="Simple example of a training script.")
    parser.add_argument("--mixed_precision", type=str, default=None, choices=["no", "fp16", "bf16"])
    parser.add_argument("--rank", type=int, default=4)
    parser.add_argument("--learning_rate", type=float, default=1e-4)
    parser.add_argument("--max_grad_norm", default=1.0, type=float)
    parser.add_argument("--train_batch_size", type=int, default=1)
    parser.add_argument("--num_train_epochs", type=int, default=3)
    parser.add_argument("--steps_per_epoch", type=int, default=2)
    parser.add_argument("--validation_prompt", type=str, default=None)
    parser.add_argument("--num_validation_images", type=int, default=1)
    parser.add_argument("--validation_epochs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


# the reporter's launch: accelerate launch train_dreambooth_lora_sdxl.py --mixed_precision="fp16" --validation_prompt=... 
LAUNCH_ARGS = ["--mixed_precision", "fp16", "--validation_prompt", "A photo of sks dog in a bucket",
               "--validation_epochs", "1", "--seed", "0"]


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

    @property
    def dtype(self):
        return next(self.parameters()).dtype

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


class TinyPipeline:
    """StableDiffusionXLPipeline stand-in: holds the training modules and denoises a latent for validation."""

    def __init__(self, vae, text_encoder, unet, scheduler):
        self.vae, self.text_encoder, self.unet, self.scheduler = vae, text_encoder, unet, scheduler

    def to(self, device=None, dtype=None):
        for module in (self.vae, self.text_encoder, self.unet):
            module.to(device=device, dtype=dtype)
        return self

    @torch.no_grad()
    def __call__(self, prompt, generator=None, num_inference_steps=4):
        ids = torch.tensor([[sum(map(ord, w)) % 100 for w in prompt.split()]])
        dtype = self.unet.conv_in.weight.dtype
        context = self.text_encoder(ids)[0].to(dtype)
        latents = torch.randn(1, 4, 8, 8, generator=generator).to(dtype)
        for t in torch.linspace(999, 0, num_inference_steps).long():
            eps = self.unet(latents, t.view(1), context)
            a = self.scheduler.alphas_cumprod[t].to(dtype)
            latents = (latents - (1 - a).sqrt() * eps) / a.sqrt()
        return latents


def log_validation(pipeline, args, accelerator, pipeline_args, epoch, torch_dtype, is_final_validation=False):
    print(f"Running validation... Generating {args.num_validation_images} images with prompt: {args.validation_prompt}.")
    pipeline = pipeline.to(accelerator.device)
    generator = torch.Generator(device=accelerator.device).manual_seed(args.seed) if args.seed is not None else None
    autocast_ctx = torch.autocast(accelerator.device.type) if not is_final_validation else nullcontext()
    with autocast_ctx:
        images = [pipeline(**pipeline_args, generator=generator) for _ in range(args.num_validation_images)]
    return images


def main():
    args = parse_args(LAUNCH_ARGS)
    accelerator = Accelerator(mixed_precision=args.mixed_precision)
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

    unet.to(accelerator.device, dtype=weight_dtype)
    vae.to(accelerator.device, dtype=torch.float32)  # the fp16-fix VAE is kept in float32 here
    text_encoder.to(accelerator.device, dtype=weight_dtype)

    unet_lora_config = LoraConfig(r=args.rank, lora_alpha=args.rank, init_lora_weights="gaussian",
                                  target_modules=["to_k", "to_q", "to_v", "to_out.0"])
    add_adapter(unet, unet_lora_config)

    # Make sure the trainable params are in float32.
    if args.mixed_precision == "fp16":
        # only upcast trainable parameters (LoRA) into fp32 (diffusers.training_utils.cast_training_params)
        for param in unet.parameters():
            if param.requires_grad:
                param.data = param.to(torch.float32)

    unet_lora_parameters = list(filter(lambda p: p.requires_grad, unet.parameters()))
    optimizer = torch.optim.AdamW(unet_lora_parameters, lr=args.learning_rate, betas=(0.9, 0.999),
                                  weight_decay=1e-4, eps=1e-8)
    optimizer = accelerator.prepare(optimizer)

    g = torch.Generator().manual_seed(args.seed)
    global_step = 0
    for epoch in range(args.num_train_epochs):
        unet.train()
        for step in range(args.steps_per_epoch):
            pixel_values = torch.rand(args.train_batch_size, 3, 16, 16, generator=g) * 2 - 1
            input_ids = torch.randint(0, 100, (args.train_batch_size, 8), generator=g)
            with accelerator.accumulate(unet):
                pixel_values = pixel_values.to(dtype=vae.dtype)
                model_input = vae.encode(pixel_values) * vae.scaling_factor
                model_input = model_input.to(weight_dtype)
                noise = torch.randn_like(model_input)
                timesteps = torch.randint(0, noise_scheduler.num_train_timesteps, (model_input.shape[0],)).long()
                noisy_model_input = noise_scheduler.add_noise(model_input, noise, timesteps)
                prompt_embeds = text_encoder(input_ids)[0]
                model_pred = unet(noisy_model_input, timesteps, prompt_embeds)
                loss = F.mse_loss(model_pred.float(), noise.float(), reduction="mean")
                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    params_to_clip = unet_lora_parameters
                    accelerator.clip_grad_norm_(params_to_clip, args.max_grad_norm)
                optimizer.step()
                optimizer.zero_grad()
            global_step += 1
            print(f"epoch {epoch} step {global_step}: loss {loss.item():.4f}")

        if args.validation_prompt is not None and epoch % args.validation_epochs == 0:
            pipeline = TinyPipeline(vae=vae, text_encoder=text_encoder, unet=unet, scheduler=noise_scheduler)
            pipeline_args = {"prompt": args.validation_prompt}
            images = log_validation(pipeline, args, accelerator, pipeline_args, epoch, torch_dtype=weight_dtype)
            print(f"validation: {len(images)} image(s), latent shape {tuple(images[0].shape)}")

    lora_dtypes = sorted({str(p.dtype) for n, p in unet.named_parameters() if "lora_" in n})
    print("LoRA parameter dtypes:", lora_dtypes)
    assert lora_dtypes == ["torch.float32"] and global_step == args.num_train_epochs * args.steps_per_epoch


if __name__ == "__main__":
    main()
