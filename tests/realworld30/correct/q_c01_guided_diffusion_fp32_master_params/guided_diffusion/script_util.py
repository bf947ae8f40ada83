import torch

from .unet import UNetModel


class GaussianDiffusion:
    def __init__(self, steps=50):
        betas = torch.linspace(1e-4, 0.02, steps, dtype=torch.float64)
        self.num_timesteps = steps
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)

    def q_sample(self, x_start, t, noise):
        a = self.alphas_cumprod[t].float().view(-1, 1, 1, 1)
        return a.sqrt() * x_start + (1 - a).sqrt() * noise

    def training_losses(self, model, x_start, t):
        noise = torch.randn_like(x_start)
        x_t = self.q_sample(x_start, t, noise)
        model_output = model(x_t, t)
        return {"loss": ((noise - model_output.float()) ** 2).mean(dim=(1, 2, 3))}


def create_model_and_diffusion(image_size=8, num_channels=8, use_fp16=False, diffusion_steps=50):
    model = UNetModel(in_channels=3, model_channels=num_channels, out_channels=3, use_fp16=use_fp16)
    if use_fp16:
        model.convert_to_fp16()
    return model, GaussianDiffusion(diffusion_steps)
