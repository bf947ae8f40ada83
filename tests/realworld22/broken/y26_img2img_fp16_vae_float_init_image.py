"""Image-to-image diffusion pipeline (diffusers StableDiffusionImg2Img layout) loaded with torch_dtype=torch.float16: the pipeline's image preprocessing turns the PIL-like uint8 init image into a float32 tensor and hands it to the half-precision VAE encoder without casting it to the VAE's dtype, so the first convolution sees float input with half weights
source: https://github.com/huggingface/diffusers/pull/6241
reported-error: RuntimeError: Input type (float) and bias type (c10::Half) should be the same (proposed fix: wrap the pipeline call in an autocast block; maintainers: calling under autocast is the caller's responsibility)
outcome: RuntimeError: Input type (float) and bias type (c10::Half) should be the same at line 21
root-cause: line 39
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


# ---- diffusers/models/autoencoder_kl.py
class TinyVAE(nn.Module):
    def __init__(self, ch=16, latent=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, ch, 3, stride=2, padding=1), nn.SiLU(), nn.Conv2d(ch, 2 * latent, 3, padding=1))
        self.decoder = nn.Sequential(nn.ConvTranspose2d(latent, ch, 4, stride=2, padding=1), nn.SiLU(), nn.Conv2d(ch, 3, 3, padding=1))

    def encode(self, x):
        mean, logvar = self.encoder(x).chunk(2, dim=1)  # fails-here
        return mean + torch.randn_like(mean) * (0.5 * logvar).exp()

    def decode(self, z):
        return self.decoder(z)


class TinyUNet(nn.Module):
    def __init__(self, latent=4, ch=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(latent, ch, 3, padding=1), nn.SiLU(), nn.Conv2d(ch, latent, 3, padding=1))

    def forward(self, z, t):
        return self.net(z) * (1.0 - t)


# ---- diffusers/image_processor.py
def preprocess(image_uint8):
    image = torch.from_numpy(image_uint8).permute(2, 0, 1)[None].float() / 127.5 - 1.0  # root-cause
    return image


# ---- diffusers/pipelines/stable_diffusion/pipeline_stable_diffusion_img2img.py
class Img2ImgPipeline:
    def __init__(self, vae, unet, dtype):
        self.vae, self.unet, self.dtype = vae.to(dtype).eval(), unet.to(dtype).eval(), dtype

    @classmethod
    def from_pretrained(cls, torch_dtype=torch.float32):
        return cls(TinyVAE(), TinyUNet(), torch_dtype)

    @torch.no_grad()
    def __call__(self, image, strength=0.6, steps=4):
        latents = self.vae.encode(preprocess(image))
        for i in range(steps):
            t = strength * (1 - i / steps)
            latents = latents - 0.1 * self.unet(latents, t)
        out = self.vae.decode(latents).float().clamp(-1, 1)
        return ((out + 1) * 127.5).round().to(torch.uint8)[0].permute(1, 2, 0).numpy()


if __name__ == "__main__":
    torch.manual_seed(0)
    pipe = Img2ImgPipeline.from_pretrained(torch_dtype=torch.float16)
    init = np.random.default_rng(0).integers(0, 256, size=(32, 32, 3), dtype=np.uint8)
    result = pipe(init)
    print("generated image", result.shape, result.dtype)
