"""Manifold sparse autoencoder on cached model activations (gamfit-like SAE): the analysis stack computes and whitens the activations in float64 (torch.float64 end to end, as the rest of the library is float64-native), but the SAE's encoder, decoder atoms and buffers are built with the default dtype, so the first encoder Linear sees a float64 batch
source: https://github.com/SauersML/gam/issues/244
reported-error: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float (sae(x) with x = torch.randn(3, 5, dtype=torch.float64); every parameter of ManifoldSAE is built with the default dtype)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 33
root-cause: line 43
expect: DG004
"""
from dataclasses import dataclass

import torch
import torch.nn as nn


# ---- gamfit/torch/manifold_sae.py
@dataclass
class ManifoldSAEConfig:
    input_dim: int = 16
    n_atoms: int = 6
    intrinsic_rank: int = 2
    l1: float = 1e-3


class ManifoldSAE(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.encoder = nn.Linear(cfg.input_dim, cfg.n_atoms * cfg.intrinsic_rank)
        self.decoder_blocks = nn.Parameter(torch.randn(cfg.n_atoms, cfg.intrinsic_rank, cfg.input_dim) * 0.1)
        self.log_lambda = nn.Parameter(torch.zeros(cfg.n_atoms))
        self.register_buffer("centers", torch.linspace(-1.0, 1.0, cfg.n_atoms))

    def forward(self, x):
        z = self.encoder(x)  # fails-here
        z = z.view(x.shape[0], self.cfg.n_atoms, self.cfg.intrinsic_rank)
        gate = torch.relu(z.norm(dim=-1) - self.log_lambda.exp() * 0.01)
        recon = torch.einsum("bfk,fkd->bd", z * gate.unsqueeze(-1), self.decoder_blocks)
        return recon, gate


# ---- gamfit/activations.py
def collect_activations(n=256, d=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    raw = torch.randn(n, d, generator=g, dtype=torch.float64)  # root-cause
    mean = raw.mean(0, keepdim=True)
    cov = torch.cov((raw - mean).T)
    evals, evecs = torch.linalg.eigh(cov)
    whiten = evecs @ torch.diag(evals.clamp_min(1e-8).rsqrt()) @ evecs.T
    return (raw - mean) @ whiten


# ---- train_sae.py
def train_sae(acts, cfg, steps=20, batch=64):
    sae = ManifoldSAE(cfg)
    opt = torch.optim.Adam(sae.parameters(), lr=1e-3)
    for step in range(steps):
        idx = torch.randint(0, acts.shape[0], (batch,))
        x = acts[idx]
        recon, gate = sae(x)
        loss = (recon - x).pow(2).mean() + cfg.l1 * gate.abs().sum(1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return sae, loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    acts = collect_activations()
    sae, final = train_sae(acts, ManifoldSAEConfig())
    print(f"final SAE loss {final:.4f}")
