"""Product-manifold VAE that runs in double precision on purpose: configure_precision() sets torch.set_default_dtype(torch.float64) before the encoder/decoder and the optimizer are built, so weights and sampled manifold points are both float64
source: https://github.com/pchlenski/manify/pull/51
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- manifolds.py
def sample_hyperboloid(n, dim, curvature=-1.0):
    v = torch.randn(n, dim) * 0.3
    x0 = torch.sqrt(1.0 / abs(curvature) + (v ** 2).sum(-1, keepdim=True))
    return torch.cat([x0, v], dim=-1)


def configure_precision(cfg):
    if cfg.manifold_precision == "double":
        torch.set_default_dtype(torch.float64)


# ---- model.py
class ManifoldVAE(nn.Module):
    def __init__(self, in_dim, latent_dim=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 32), nn.Tanh(), nn.Linear(32, 2 * latent_dim))
        self.decoder = nn.Sequential(nn.Linear(latent_dim, 32), nn.Tanh(), nn.Linear(32, in_dim))

    def forward(self, x):
        mu, logvar = self.encoder(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.decoder(z), mu, logvar


def vae_loss(recon, x, mu, logvar):
    kl = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
    return F.mse_loss(recon, x) + 1e-2 * kl


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dim", type=int, default=6)
    ap.add_argument("--manifold-precision", default="double", choices=["single", "double"])
    cfg = ap.parse_args([])

    configure_precision(cfg)
    model = ManifoldVAE(cfg.dim + 1)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    points = sample_hyperboloid(128, cfg.dim)
    for epoch in range(3):
        recon, mu, logvar = model(points)
        loss = vae_loss(recon, points, mu, logvar)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("epoch", epoch, "loss", round(loss.item(), 4))


if __name__ == "__main__":
    main()
