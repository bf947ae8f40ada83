"""The dome272-style class-conditional DDPM of bl01 with the scalar condition discretized, as the maintainer suggested in the thread: the continuous label 'c' is binned into num_classes classes with np.digitize, the Dataset returns an int64 class index from torch.tensor(int), so nn.Embedding gets Long indices; the model trains two epochs and samples with classifier-free guidance
source: https://github.com/dome272/Diffusion-Models-pytorch/issues/29
reported-error: (none filed; the fixed situation of bl01)
outcome: ok
root-cause: -
expect: none
"""
import copy

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
np.random.seed(0)


class Diffusion:
    def __init__(self, noise_steps=50, beta_start=1e-4, beta_end=0.02, img_size=16, device="cpu"):
        self.noise_steps = noise_steps
        self.beta_start = beta_start
        self.beta_end = beta_end
        self.beta = self.prepare_noise_schedule().to(device)
        self.alpha = 1. - self.beta
        self.alpha_hat = torch.cumprod(self.alpha, dim=0)
        self.img_size = img_size
        self.device = device

    def prepare_noise_schedule(self):
        return torch.linspace(self.beta_start, self.beta_end, self.noise_steps)

    def noise_images(self, x, t):
        sqrt_alpha_hat = torch.sqrt(self.alpha_hat[t])[:, None, None, None]
        sqrt_one_minus_alpha_hat = torch.sqrt(1 - self.alpha_hat[t])[:, None, None, None]
        eps = torch.randn_like(x)
        return sqrt_alpha_hat * x + sqrt_one_minus_alpha_hat * eps, eps

    def sample_timesteps(self, n):
        return torch.randint(low=1, high=self.noise_steps, size=(n,))

    def sample(self, model, n, labels, cfg_scale=3):
        model.eval()
        with torch.no_grad():
            x = torch.randn((n, 3, self.img_size, self.img_size)).to(self.device)
            for i in reversed(range(1, self.noise_steps)):
                t = (torch.ones(n) * i).long().to(self.device)
                predicted_noise = model(x, t, labels)
                if cfg_scale > 0:
                    uncond_predicted_noise = model(x, t, None)
                    predicted_noise = torch.lerp(uncond_predicted_noise, predicted_noise, cfg_scale)
                alpha = self.alpha[t][:, None, None, None]
                alpha_hat = self.alpha_hat[t][:, None, None, None]
                beta = self.beta[t][:, None, None, None]
                noise = torch.randn_like(x) if i > 1 else torch.zeros_like(x)
                x = 1 / torch.sqrt(alpha) * (x - ((1 - alpha) / (torch.sqrt(1 - alpha_hat))) * predicted_noise) + torch.sqrt(beta) * noise
        model.train()
        x = (x.clamp(-1, 1) + 1) / 2
        return (x * 255).type(torch.uint8)


class DoubleConv(nn.Module):
    def __init__(self, in_channels, out_channels, mid_channels=None, residual=False):
        super().__init__()
        self.residual = residual
        mid_channels = mid_channels or out_channels
        self.double_conv = nn.Sequential(
            nn.Conv2d(in_channels, mid_channels, kernel_size=3, padding=1, bias=False),
            nn.GroupNorm(1, mid_channels), nn.GELU(),
            nn.Conv2d(mid_channels, out_channels, kernel_size=3, padding=1, bias=False),
            nn.GroupNorm(1, out_channels),
        )

    def forward(self, x):
        return F.gelu(x + self.double_conv(x)) if self.residual else self.double_conv(x)


class Down(nn.Module):
    def __init__(self, in_channels, out_channels, emb_dim=32):
        super().__init__()
        self.maxpool_conv = nn.Sequential(nn.MaxPool2d(2), DoubleConv(in_channels, in_channels, residual=True),
                                          DoubleConv(in_channels, out_channels))
        self.emb_layer = nn.Sequential(nn.SiLU(), nn.Linear(emb_dim, out_channels))

    def forward(self, x, t):
        x = self.maxpool_conv(x)
        emb = self.emb_layer(t)[:, :, None, None].repeat(1, 1, x.shape[-2], x.shape[-1])
        return x + emb


class Up(nn.Module):
    def __init__(self, in_channels, out_channels, emb_dim=32):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
        self.conv = nn.Sequential(DoubleConv(in_channels, in_channels, residual=True),
                                  DoubleConv(in_channels, out_channels, in_channels // 2))
        self.emb_layer = nn.Sequential(nn.SiLU(), nn.Linear(emb_dim, out_channels))

    def forward(self, x, skip_x, t):
        x = self.conv(torch.cat([skip_x, self.up(x)], dim=1))
        emb = self.emb_layer(t)[:, :, None, None].repeat(1, 1, x.shape[-2], x.shape[-1])
        return x + emb


class UNet_conditional(nn.Module):
    def __init__(self, c_in=3, c_out=3, time_dim=32, num_classes=None, device="cpu"):
        super().__init__()
        self.device = device
        self.time_dim = time_dim
        self.inc = DoubleConv(c_in, 16)
        self.down1 = Down(16, 32, time_dim)
        self.down2 = Down(32, 32, time_dim)
        self.bot1 = DoubleConv(32, 64)
        self.bot2 = DoubleConv(64, 32)
        self.up1 = Up(64, 16, time_dim)
        self.up2 = Up(32, 16, time_dim)
        self.outc = nn.Conv2d(16, c_out, kernel_size=1)
        if num_classes is not None:
            self.label_emb = nn.Embedding(num_classes, time_dim)

    def pos_encoding(self, t, channels):
        inv_freq = 1.0 / (10000 ** (torch.arange(0, channels, 2, device=self.device).float() / channels))
        pos_enc_a = torch.sin(t.repeat(1, channels // 2) * inv_freq)
        pos_enc_b = torch.cos(t.repeat(1, channels // 2) * inv_freq)
        return torch.cat([pos_enc_a, pos_enc_b], dim=-1)

    def forward(self, x, t, y):
        t = t.unsqueeze(-1).type(torch.float)
        t = self.pos_encoding(t, self.time_dim)
        if y is not None:
            t += self.label_emb(y)
        x1 = self.inc(x)
        x2 = self.down1(x1, t)
        x3 = self.down2(x2, t)
        x3 = self.bot2(self.bot1(x3))
        x = self.up1(x3, x2, t)
        x = self.up2(x, x1, t)
        return self.outc(x)


class EMA:
    def __init__(self, beta):
        self.beta = beta
        self.step = 0

    def step_ema(self, ema_model, model, step_start_ema=2000):
        if self.step < step_start_ema:
            ema_model.load_state_dict(model.state_dict())
        self.step += 1


def make_table(n=48, size=16):
    """Per-image scalar condition 'c' (e.g. a measured quantity in [0, 9]) in a CSV-like table."""
    rng = np.random.default_rng(0)
    c = np.round(rng.uniform(0, 9, n), 2)  # float64 column
    yy, xx = np.mgrid[:size, :size]
    images = []
    for ci in c:
        r = 2 + ci / 2
        disk = ((yy - size / 2) ** 2 + (xx - size / 2) ** 2 < r ** 2).astype(np.float64)
        images.append(np.stack([disk, disk * ci / 9, 1 - disk]) * 2 - 1)
    return pd.DataFrame({"image_id": np.arange(n), "c": c}), np.stack(images)


class ScalarLabelDataset(Dataset):
    def __init__(self, table, images, num_classes=10):
        self.labels = table["c"].to_numpy()
        edges = np.linspace(self.labels.min(), self.labels.max(), num_classes + 1)[1:-1]
        self.classes = np.digitize(self.labels, edges)  # int64 bins 0..num_classes-1
        self.images = images

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        image = torch.from_numpy(self.images[idx]).float()
        label = torch.tensor(int(self.classes[idx]))
        return image, label


def train(args):
    device = args["device"]
    table, images = make_table(size=args["image_size"])
    dataloader = DataLoader(ScalarLabelDataset(table, images, args["num_classes"]), batch_size=args["batch_size"], shuffle=True)
    model = UNet_conditional(num_classes=args["num_classes"], time_dim=32, device=device).to(device)
    optimizer = optim.AdamW(model.parameters(), lr=args["lr"])
    mse = nn.MSELoss()
    diffusion = Diffusion(img_size=args["image_size"], device=device)
    ema = EMA(0.995)
    ema_model = copy.deepcopy(model).eval().requires_grad_(False)
    for epoch in range(args["epochs"]):
        for i, (images, labels) in enumerate(dataloader):
            images = images.to(device)
            labels = labels.to(device)
            t = diffusion.sample_timesteps(images.shape[0]).to(device)
            x_t, noise = diffusion.noise_images(images, t)
            if np.random.random() < 0.1:
                labels = None
            predicted_noise = model(x_t, t, labels)
            loss = mse(noise, predicted_noise)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema.step_ema(ema_model, model)
        print(f"epoch {epoch}: MSE {loss.item():.4f}")
    labels = torch.arange(4).long().to(device)
    sampled = diffusion.sample(ema_model, n=len(labels), labels=labels)
    print("sampled", tuple(sampled.shape), sampled.dtype)


if __name__ == "__main__":
    train({"epochs": 2, "batch_size": 8, "image_size": 16, "num_classes": 10, "device": "cpu", "lr": 3e-4})
