"""Product-manifold VAE whose configure_precision() switches torch.set_default_dtype(torch.float64) "for stable manifold maths" only after the encoder/decoder exist; the manifold points sampled afterwards are float64 and hit the float32 encoder
source: https://github.com/pchlenski/manify/pull/51
reported-error: The float64 default regressed the nn-based embedders: user-provided encoders/decoders default to float32 and collided with float64 manifold operations ("expected m1 and m2 to have the same dtype, float != double")
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 35
root-cause: line 24
expect: DG001
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
        torch.set_default_dtype(torch.float64)  # root-cause


# ---- model.py
class ManifoldVAE(nn.Module):
    def __init__(self, in_dim, latent_dim=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 32), nn.Tanh(), nn.Linear(32, 2 * latent_dim))
        self.decoder = nn.Sequential(nn.Linear(latent_dim, 32), nn.Tanh(), nn.Linear(32, in_dim))

    def forward(self, x):
        mu, logvar = self.encoder(x).chunk(2, dim=-1)  # fails-here
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

    model = ManifoldVAE(cfg.dim + 1)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    configure_precision(cfg)

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
