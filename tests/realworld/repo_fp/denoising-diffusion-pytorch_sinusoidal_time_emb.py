"""Diffusion timesteps (int64) go through a SinusoidalPosEmb before the time MLP's Linear
source: https://github.com/lucidrains/denoising-diffusion-pytorch/blob/faed4db28e724735323fa91c70aa9b28a6e1cbac/denoising_diffusion_pytorch/classifier_free_guidance.py#L812
false-alarm: DG005 at line 48 (input traced from the .long() at line 81): t is int64, but the first module of time_mlp is SinusoidalPosEmb, whose forward multiplies x[:, None] by a float32 tensor (int64 * float32 -> float32), so the nn.Linear only ever sees float32
"""
import math

import torch
from torch import nn
import torch.nn.functional as F


class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        device = x.device
        half_dim = self.dim // 2
        emb = math.log(10000) / (half_dim - 1)
        emb = torch.exp(torch.arange(half_dim, device=device) * -emb)
        emb = x[:, None] * emb[None, :]
        emb = torch.cat((emb.sin(), emb.cos()), dim=-1)
        return emb


class Unet(nn.Module):
    def __init__(self, dim, channels = 3):
        super().__init__()
        self.channels = channels
        self.init_conv = nn.Conv2d(channels, dim, 7, padding = 3)

        time_dim = dim * 4
        sinu_pos_emb = SinusoidalPosEmb(dim)
        fourier_dim = dim

        self.time_mlp = nn.Sequential(
            sinu_pos_emb,
            nn.Linear(fourier_dim, time_dim),
            nn.GELU(),
            nn.Linear(time_dim, time_dim)
        )
        self.to_scale_shift = nn.Linear(time_dim, dim * 2)
        self.final_conv = nn.Conv2d(dim, channels, 1)

    def forward(self, x, time):
        x = self.init_conv(x)
        t = self.time_mlp(time)
        scale, shift = self.to_scale_shift(t)[:, :, None, None].chunk(2, dim = 1)
        x = x * (scale + 1) + shift
        return self.final_conv(x)


class GaussianDiffusion(nn.Module):
    def __init__(self, model, *, image_size, timesteps = 1000):
        super().__init__()
        self.model = model
        self.image_size = image_size
        self.num_timesteps = timesteps
        betas = torch.linspace(1e-4, 0.02, timesteps, dtype = torch.float64)
        alphas_cumprod = torch.cumprod(1. - betas, dim = 0)
        self.register_buffer('sqrt_alphas_cumprod', torch.sqrt(alphas_cumprod).to(torch.float32))
        self.register_buffer('sqrt_one_minus_alphas_cumprod', torch.sqrt(1. - alphas_cumprod).to(torch.float32))

    def q_sample(self, x_start, t, noise):
        b = t.shape[0]
        return (
            self.sqrt_alphas_cumprod.gather(-1, t).reshape(b, 1, 1, 1) * x_start +
            self.sqrt_one_minus_alphas_cumprod.gather(-1, t).reshape(b, 1, 1, 1) * noise
        )

    def p_losses(self, x_start, t):
        noise = torch.randn_like(x_start)
        x = self.q_sample(x_start = x_start, t = t, noise = noise)
        model_out = self.model(x, t)
        return F.mse_loss(model_out, noise)

    def forward(self, img):
        b, c, h, w, device, img_size, = *img.shape, img.device, self.image_size
        assert h == img_size and w == img_size, f'height and width of image must be {img_size}'
        t = torch.randint(0, self.num_timesteps, (b,), device=device).long()

        img = img * 2 - 1
        return self.p_losses(img, t)


if __name__ == '__main__':
    model = Unet(dim = 16)
    diffusion = GaussianDiffusion(model, image_size = 8, timesteps = 100)
    training_images = torch.rand(4, 3, 8, 8)
    loss = diffusion(training_images)
    loss.backward()
    print('loss', loss.item())
