"""The sd-webui-animatediff-style context-window video sampling of bd05 (continue-revolution/sd-webui-animatediff #168) with the fix of commit f20f57f: mm_sd_forward keeps x_out = torch.zeros_like(x_in) but converts it to the dtype of each window's output (x_out = x_out.to(dtype=out.dtype)) before the indexed write, so the float16 UNet outputs made under autocast fill it and the DDIM loop finishes; the float32 latents, the autocast region, the int64 timesteps and the list-of-frames indexing are kept
source: https://github.com/continue-revolution/sd-webui-animatediff/issues/168
reported-error: (none filed; the fixed situation of bd05)
outcome: ok
root-cause: -
expect: none
"""
import math
from types import SimpleNamespace

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
LATENT_C, H, W, CTX = 4, 8, 8, 16
params = SimpleNamespace(video_length=12, batch_size=8, stride=1, overlap=4, closed_loop=False)
opts = SimpleNamespace(batch_cond_uncond=True)


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class MotionModule(nn.Module):
    """temporal self-attention across the frames of one video (AnimateDiff's motion module)"""

    def __init__(self, ch, video_length):
        super().__init__()
        self.video_length = video_length
        self.norm = nn.GroupNorm(4, ch)
        self.attn = nn.MultiheadAttention(ch, 4, batch_first=True)
        self.pos = nn.Parameter(torch.zeros(1, 32, ch))

    def forward(self, h):
        bf, c, hh, ww = h.shape
        f = self.video_length
        x = self.norm(h).reshape(bf // f, f, c, hh * ww).permute(0, 3, 1, 2).reshape(-1, f, c)
        x = x + self.pos[:, :f]
        x = self.attn(x, x, x, need_weights=False)[0]
        x = x.reshape(bf // f, hh * ww, f, c).permute(0, 2, 3, 1).reshape(bf, c, hh, ww)
        return h + x


class UNetModel(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.time_embed = nn.Sequential(nn.Linear(ch, ch), nn.SiLU(), nn.Linear(ch, ch))
        self.context_proj = nn.Linear(CTX, ch)
        self.conv_in = nn.Conv2d(LATENT_C, ch, 3, padding=1)
        self.block = nn.Sequential(nn.GroupNorm(4, ch), nn.SiLU(), nn.Conv2d(ch, ch, 3, padding=1))
        self.motion = MotionModule(ch, params.batch_size)
        self.conv_out = nn.Conv2d(ch, LATENT_C, 3, padding=1)
        self.ch = ch

    def forward(self, x, timesteps, context):
        emb = self.time_embed(timestep_embedding(timesteps, self.ch)) + self.context_proj(context.mean(1))
        h = self.conv_in(x) + emb[:, :, None, None]
        h = self.motion(h + self.block(h))
        return self.conv_out(F.silu(h))


class CompVisModel:
    """LatentDiffusion.apply_model as the compvis samplers call it: the UNet output (eps) is returned as is"""

    def __init__(self, unet):
        self.diffusion_model = unet

    def __call__(self, x, t, cond):
        return self.diffusion_model(x, t, context=torch.cat(cond["c_crossattn"], 1))


class AnimateDiffInfV2V:
    @staticmethod
    def ordered_halving(val):
        bin_str = f"{val:064b}"
        bin_flip = bin_str[::-1]
        as_int = int(bin_flip, 2)
        return as_int / (1 << 64)

    @staticmethod
    def uniform(step=..., video_length=0, batch_size=16, stride=1, overlap=4, closed_loop=True):
        if video_length <= batch_size:
            yield list(range(batch_size))
            return
        stride = min(stride, int(np.ceil(np.log2(video_length / batch_size))) + 1)
        for context_step in 1 << np.arange(stride):
            pad = int(round(video_length * AnimateDiffInfV2V.ordered_halving(step)))
            for j in range(
                int(AnimateDiffInfV2V.ordered_halving(step) * context_step) + pad,
                video_length + pad + (0 if closed_loop else -overlap),
                (batch_size * context_step - overlap),
            ):
                yield [e % video_length for e in range(j, j + batch_size * context_step, context_step)]


class CFGDenoiser:
    """the webui CFGDenoiser with AnimateDiff's hacked forward (batch_cond_uncond branch only)"""

    def __init__(self, inner_model):
        self.inner_model = inner_model
        self.step = 0

    def mm_sd_forward(self, x_in, sigma_in, cond_in, image_cond_in, make_condition_dict):
        x_out = torch.zeros_like(x_in)
        for context in AnimateDiffInfV2V.uniform(self.step, params.video_length, params.batch_size, params.stride, params.overlap, params.closed_loop):
            if opts.batch_cond_uncond:
                _context = context + [c + params.video_length for c in context]
            else:
                _context = context
            out = self.inner_model(x_in[_context], sigma_in[_context], cond=make_condition_dict(cond_in[_context], image_cond_in[_context]))
            x_out = x_out.to(dtype=out.dtype)
            x_out[_context] = out
        return x_out

    def forward(self, x, sigma, uncond, cond, cond_scale, image_cond):
        make_condition_dict = lambda c_crossattn, c_concat: {"c_crossattn": [c_crossattn], "c_concat": [c_concat]}
        x_in = torch.cat([x, x])
        sigma_in = torch.cat([sigma, sigma])
        image_cond_in = torch.cat([image_cond, image_cond])
        cond_in = torch.cat([cond, uncond])
        x_out = self.mm_sd_forward(x_in, sigma_in, cond_in, image_cond_in, make_condition_dict)
        denoised_cond, denoised_uncond = x_out[: x.shape[0]], x_out[x.shape[0]:]
        self.step += 1
        return denoised_uncond + (denoised_cond - denoised_uncond) * cond_scale


def ddim_sample(denoiser, shape, cond, uncond, steps=5, cond_scale=7.5):
    alphas_cumprod = torch.cumprod(1 - torch.linspace(0.00085, 0.012, 1000), 0)
    timesteps = torch.linspace(999, 0, steps).long()
    x = torch.randn(shape)  # float32 latents
    image_cond = torch.zeros(shape[0], 5, 1, 1)
    for i, t in enumerate(timesteps):
        ts = torch.full((shape[0],), int(t), dtype=torch.long)
        e_t = denoiser.forward(x, ts, uncond, cond, cond_scale, image_cond)
        a_t = alphas_cumprod[t]
        a_prev = alphas_cumprod[timesteps[i + 1]] if i + 1 < steps else torch.tensor(1.0)
        pred_x0 = (x - (1 - a_t).sqrt() * e_t) / a_t.sqrt()
        x = a_prev.sqrt() * pred_x0 + (1 - a_prev).sqrt() * e_t
    return x


if __name__ == "__main__":
    unet = UNetModel().eval()
    denoiser = CFGDenoiser(CompVisModel(unet))
    cond = torch.randn(params.video_length, 7, CTX)  # prompt embeddings repeated per frame
    uncond = torch.zeros(params.video_length, 7, CTX)
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):  # devices.autocast()
        samples = ddim_sample(denoiser, (params.video_length, LATENT_C, H, W), cond, uncond)
    print("latents", tuple(samples.shape), samples.dtype, float(samples.float().abs().mean()))
    assert torch.isfinite(samples).all()
