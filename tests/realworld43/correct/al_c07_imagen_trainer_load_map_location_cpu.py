"""Text-to-image diffusion with imagen-pytorch (as in al07: ImagenTrainer.save on the GPU machine writes CUDA-tagged model and optimizer state, sampling happens on a machine without CUDA) with ImagenTrainer.load mapping the checkpoint to the CPU first, torch.load(str(path), map_location='cpu'), as imagen-pytorch pull request #190 does; load_state_dict then copies the weights onto the model's own device (exit 0)
source: https://github.com/lucidrains/imagen-pytorch/pull/190
reported-error: (none filed; the fixed situation of al07)
outcome: ok
root-cause: -
expect: none
"""
import contextlib
import os
import tempfile
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F

__version__ = "0.24.2"


# ---- imagen_pytorch/imagen_pytorch.py (reduced: a one-level Unet conditioned on a text embedding and the
# noise level, and an Imagen wrapper with a cosine schedule and DDPM-style sampling)
class Unet(nn.Module):
    def __init__(self, dim=16, text_dim=8, channels=3):
        super().__init__()
        self.time_mlp = nn.Sequential(nn.Linear(1, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.text_proj = nn.Linear(text_dim, dim)
        self.down = nn.Conv2d(channels, dim, 3, padding=1)
        self.mid = nn.Conv2d(dim, dim, 3, padding=1)
        self.up = nn.Conv2d(dim, channels, 3, padding=1)

    def forward(self, x, times, text_embeds):
        cond = self.time_mlp(times[:, None]) + self.text_proj(text_embeds.mean(1))
        h = F.silu(self.down(x)) + cond[:, :, None, None]
        return self.up(F.silu(self.mid(h)))


class Imagen(nn.Module):
    def __init__(self, unets, image_sizes=(16,), timesteps=50):
        super().__init__()
        self.unets = nn.ModuleList(unets)
        self.image_sizes = image_sizes
        self.timesteps = timesteps

    def alpha(self, t):
        return torch.cos((t + 0.008) / 1.008 * torch.pi / 2) ** 2

    def forward(self, images, text_embeds, unet_number=1):
        unet = self.unets[unet_number - 1]
        t = torch.rand(images.shape[0], device=images.device)
        a = self.alpha(t)[:, None, None, None]
        noise = torch.randn_like(images)
        noised = a.sqrt() * images + (1 - a).sqrt() * noise
        return F.mse_loss(unet(noised, t, text_embeds), noise)

    @torch.no_grad()
    def sample(self, text_embeds, cond_scale=1.0):
        unet = self.unets[0]
        device = next(unet.parameters()).device
        size = self.image_sizes[0]
        x = torch.randn(text_embeds.shape[0], 3, size, size, device=device)
        for i in reversed(range(1, self.timesteps)):
            t = torch.full((x.shape[0],), i / self.timesteps, device=device)
            a, a_prev = self.alpha(t)[:, None, None, None], self.alpha(t - 1 / self.timesteps)[:, None, None, None]
            eps = unet(x, t, text_embeds.to(device))
            x0 = ((x - (1 - a).sqrt() * eps) / a.sqrt()).clamp(-1, 1)
            x = a_prev.sqrt() * x0 + (1 - a_prev).sqrt() * eps
        return (x.clamp(-1, 1) + 1) / 2


# ---- imagen_pytorch/trainer.py (reduced: one unet, no accelerate, no EMA warmup)
class ImagenTrainer(nn.Module):
    def __init__(self, imagen, lr=1e-4):
        super().__init__()
        self.imagen = imagen
        self.num_unets = len(imagen.unets)
        for ind, unet in enumerate(imagen.unets):
            setattr(self, f'optim{ind}', torch.optim.Adam(unet.parameters(), lr=lr))
            setattr(self, f'scaler{ind}', torch.amp.GradScaler('cuda', enabled=False))
        self.register_buffer('steps', torch.tensor([0] * self.num_unets))

    def forward(self, images, text_embeds, unet_number=1):
        loss = self.imagen(images, text_embeds=text_embeds, unet_number=unet_number)
        loss.backward()
        return loss.item()

    def update(self, unet_number=1):
        optimizer = getattr(self, f'optim{unet_number - 1}')
        optimizer.step()
        optimizer.zero_grad()
        self.steps[unet_number - 1] += 1

    def save(self, path, overwrite=True, **kwargs):
        path = Path(path)
        assert not (path.exists() and not overwrite)
        path.parent.mkdir(parents=True, exist_ok=True)
        save_obj = dict(model=self.imagen.state_dict(), version=__version__, steps=self.steps.cpu(), **kwargs)
        for ind in range(0, self.num_unets):
            save_obj = {**save_obj, f'scaler{ind}': getattr(self, f'scaler{ind}').state_dict(),
                        f'optim{ind}': getattr(self, f'optim{ind}').state_dict()}
        torch.save(save_obj, str(path))
        print(f'checkpoint saved to {str(path)}')

    def load(self, path, only_model=False, strict=True):
        path = Path(path)
        assert path.exists()
        loaded_obj = torch.load(str(path), map_location='cpu')
        if __version__ != loaded_obj['version']:
            print(f'loading saved imagen at version {loaded_obj["version"]}, but current package version is {__version__}')
        self.imagen.load_state_dict(loaded_obj['model'], strict=strict)
        self.steps.copy_(loaded_obj['steps'])
        if only_model:
            return loaded_obj
        for ind in range(0, self.num_unets):
            getattr(self, f'scaler{ind}').load_state_dict(loaded_obj[f'scaler{ind}'])
            getattr(self, f'optim{ind}').load_state_dict(loaded_obj[f'optim{ind}'])
        return loaded_obj

    def sample(self, *args, **kwargs):
        return self.imagen.sample(*args, **kwargs)


# ---- the user's two runs: training on the GPU machine (Colab), sampling on a laptop without CUDA
@contextlib.contextmanager
def storages_tagged_cuda():
    # what torch.save records for tensors that live on the GPU
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


def make_imagen():
    return Imagen(unets=(Unet(dim=16, text_dim=8),), image_sizes=(16,), timesteps=20)


def train_on_gpu_machine(ckpt_path):
    trainer = ImagenTrainer(make_imagen())
    images = torch.rand(8, 3, 16, 16) * 2 - 1
    text_embeds = torch.randn(8, 4, 8)
    for i in range(20):
        loss = trainer(images, text_embeds=text_embeds, unet_number=1)
        trainer.update(unet_number=1)
    print(f'step {int(trainer.steps[0])} loss {loss:.4f}')
    with storages_tagged_cuda():
        trainer.save(ckpt_path)


def sample_on_laptop(ckpt_path):
    trainer = ImagenTrainer(make_imagen())
    trainer.load(ckpt_path)
    images = trainer.sample(text_embeds=torch.randn(2, 4, 8), cond_scale=3.)
    print('sampled', tuple(images.shape), 'after', int(trainer.steps[0]), 'steps')


if __name__ == "__main__":
    torch.manual_seed(0)
    ckpt_path = os.path.join(tempfile.mkdtemp(), 'checkpoint.pt')
    train_on_gpu_machine(ckpt_path)
    sample_on_laptop(ckpt_path)
