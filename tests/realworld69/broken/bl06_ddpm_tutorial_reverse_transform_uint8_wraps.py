"""The dtransposed "Diffusion Model" tutorial notebook re-typed (DiffusionModel with a linear beta schedule, forward/backward steps, get_index_from_list gather, a small time-conditioned UNet of Blocks with sinusoidal embeddings, trained on one image) and then sampled from noise; reverse_transform maps [-1, 1] to [0, 255] and casts with .astype(np.uint8) without clamping, so every sampled value outside [-1, 1] wraps around modulo 256 and shows up as noise speckles in the picture (no error)
source: https://github.com/dtransposed/code_videos/pull/2
reported-error: "Stop noise from appearing on generated images": without clamping, sampled images show spurious coloured dots; "I clamped the images so there is no noise in the image ... The blue dots aren't supposed to be there, so you can clamp to get rid of them"
outcome: ok (silent): no error; the sampled 16x16 image has 322 values outside [-1, 1] and astype(np.uint8) wraps them (a value of -1.2 becomes 231 instead of 0): "317 of 768 pixels wrapped by astype(np.uint8)" (check.py requires a count above 0)
root-cause: line 73
expect: DG018
"""
import math

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cpu")


def compose(*fns):
    def apply(t):
        for f in fns:
            t = f(t)
        return t
    return apply


class DiffusionModel:
    def __init__(self, start_schedule=0.0001, end_schedule=0.02, timesteps=100):
        self.start_schedule = start_schedule
        self.end_schedule = end_schedule
        self.timesteps = timesteps
        self.betas = torch.linspace(start_schedule, end_schedule, timesteps)
        self.alphas = 1 - self.betas
        self.alphas_cumprod = torch.cumprod(self.alphas, axis=0)

    def forward(self, x_0, t, device):
        noise = torch.randn_like(x_0)
        sqrt_alphas_cumprod_t = self.get_index_from_list(self.alphas_cumprod.sqrt(), t, x_0.shape)
        sqrt_one_minus_alphas_cumprod_t = self.get_index_from_list(torch.sqrt(1. - self.alphas_cumprod), t, x_0.shape)
        mean = sqrt_alphas_cumprod_t.to(device) * x_0.to(device)
        variance = sqrt_one_minus_alphas_cumprod_t.to(device) * noise.to(device)
        return mean + variance, noise.to(device)

    @torch.no_grad()
    def backward(self, x, t, model, **kwargs):
        betas_t = self.get_index_from_list(self.betas, t, x.shape)
        sqrt_one_minus_alphas_cumprod_t = self.get_index_from_list(torch.sqrt(1. - self.alphas_cumprod), t, x.shape)
        sqrt_recip_alphas_t = self.get_index_from_list(torch.sqrt(1.0 / self.alphas), t, x.shape)
        mean = sqrt_recip_alphas_t * (x - betas_t * model(x, t, **kwargs) / sqrt_one_minus_alphas_cumprod_t)
        posterior_variance_t = betas_t
        if t == 0:
            return mean
        noise = torch.randn_like(x)
        return mean + torch.sqrt(posterior_variance_t) * noise

    @staticmethod
    def get_index_from_list(values, t, x_shape):
        batch_size = t.shape[0]
        result = values.gather(-1, t.cpu())
        return result.reshape(batch_size, *((1,) * (len(x_shape) - 1))).to(t.device)


IMAGE_SHAPE = (16, 16)

transform = compose(
    lambda a: torch.from_numpy(a).permute(2, 0, 1).float() / 255.,  # ToTensor: HWC uint8 -> CHW float in [0, 1]
    lambda t: (t * 2) - 1,  # Scale data between [-1, 1]
)

reverse_transform = compose(
    lambda t: (t + 1) / 2,  # Scale data between [0,1]
    lambda t: t.permute(1, 2, 0),  # CHW to HWC
    lambda t: t * 255.,  # Scale data between [0.,255.]
    lambda t: t.cpu().numpy().astype(np.uint8),  # root-cause
)


def get_sample_image():
    """Stand-in for the downloaded racoon photo: a 16x16 RGB uint8 image."""
    yy, xx = np.mgrid[:16, :16]
    r = (128 + 100 * np.sin(xx / 3.0)).astype(np.uint8)
    g = (128 + 100 * np.cos(yy / 4.0)).astype(np.uint8)
    b = ((xx * yy) % 256).astype(np.uint8)
    return np.stack([r, g, b], axis=-1)


class SinusoidalPositionEmbeddings(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, time):
        half_dim = self.dim // 2
        embeddings = math.log(10000) / (half_dim - 1)
        embeddings = torch.exp(torch.arange(half_dim, device=time.device) * -embeddings)
        embeddings = time[:, None] * embeddings[None, :]
        return torch.cat((embeddings.sin(), embeddings.cos()), dim=-1)


class Block(nn.Module):
    def __init__(self, channels_in, channels_out, time_embedding_dims, num_filters=3, downsample=True):
        super().__init__()
        self.time_embedding = SinusoidalPositionEmbeddings(time_embedding_dims)
        self.downsample = downsample
        if downsample:
            self.conv1 = nn.Conv2d(channels_in, channels_out, num_filters, padding=1)
            self.final = nn.Conv2d(channels_out, channels_out, 4, 2, 1)
        else:
            self.conv1 = nn.Conv2d(2 * channels_in, channels_out, num_filters, padding=1)
            self.final = nn.ConvTranspose2d(channels_out, channels_out, 4, 2, 1)
        self.bnorm1 = nn.BatchNorm2d(channels_out)
        self.bnorm2 = nn.BatchNorm2d(channels_out)
        self.conv2 = nn.Conv2d(channels_out, channels_out, 3, padding=1)
        self.time_mlp = nn.Linear(time_embedding_dims, channels_out)
        self.relu = nn.ReLU()

    def forward(self, x, t, **kwargs):
        o = self.bnorm1(self.relu(self.conv1(x)))
        o_time = self.relu(self.time_mlp(self.time_embedding(t)))
        o = o + o_time[(...,) + (None,) * 2]
        o = self.bnorm2(self.relu(self.conv2(o)))
        return self.final(o)


class UNet(nn.Module):
    def __init__(self, img_channels=3, time_embedding_dims=32, sequence_channels=(16, 32, 64)):
        super().__init__()
        self.downsampling = nn.ModuleList([Block(ci, co, time_embedding_dims) for ci, co in zip(sequence_channels, sequence_channels[1:])])
        self.upsampling = nn.ModuleList([Block(ci, co, time_embedding_dims, downsample=False)
                                         for ci, co in zip(sequence_channels[::-1], sequence_channels[::-1][1:])])
        self.conv1 = nn.Conv2d(img_channels, sequence_channels[0], 3, padding=1)
        self.conv2 = nn.Conv2d(sequence_channels[0], img_channels, 1)

    def forward(self, x, t, **kwargs):
        residuals = []
        o = self.conv1(x)
        for ds in self.downsampling:
            o = ds(o, t, **kwargs)
            residuals.append(o)
        for us, res in zip(self.upsampling, reversed(residuals)):
            o = us(torch.cat((o, res), dim=1), t, **kwargs)
        return self.conv2(o)


torch_image = transform(get_sample_image())
diffusion_model = DiffusionModel()

NO_EPOCHS, PRINT_FREQUENCY, LR, BATCH_SIZE = 60, 20, 0.001, 32
unet = UNet().to(device)
optimizer = torch.optim.Adam(unet.parameters(), lr=LR)
for epoch in range(NO_EPOCHS):
    batch = torch.stack([torch_image] * BATCH_SIZE)
    t = torch.randint(0, diffusion_model.timesteps, (BATCH_SIZE,)).long().to(device)
    batch_noisy, noise = diffusion_model.forward(batch, t, device)
    predicted_noise = unet(batch_noisy, t)
    optimizer.zero_grad()
    loss = torch.nn.functional.mse_loss(noise, predicted_noise)
    loss.backward()
    optimizer.step()
    if epoch % PRINT_FREQUENCY == 0:
        print(f"Epoch: {epoch} | Train Loss {loss.item():.4f}")

with torch.no_grad():
    img = torch.randn((1, 3) + IMAGE_SHAPE).to(device)
    for i in reversed(range(diffusion_model.timesteps)):
        t = torch.full((1,), i, dtype=torch.long, device=device)
        img = diffusion_model.backward(img, t, unet.eval())  # root-cause-alt

picture = reverse_transform(img[0])
scaled = ((img[0] + 1) / 2 * 255.).permute(1, 2, 0).numpy()
out_of_range = int(((scaled < 0) | (scaled > 255)).sum())
wrapped = int((picture.astype(np.int64) != np.clip(scaled, 0, 255).astype(np.int64)).sum())
print(f"sample range [{img.min().item():.2f}, {img.max().item():.2f}], {out_of_range} values outside [-1, 1]")
print(f"{wrapped} of {picture.size} pixels wrapped by astype(np.uint8)")
