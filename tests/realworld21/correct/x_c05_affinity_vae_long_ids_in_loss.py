"""Affinity-VAE whose collate still builds the class ids with the legacy torch.Tensor constructor (float32, also logged as a histogram), but the affinity loss converts them with .long() before indexing the lookup matrix
source: https://github.com/ccpem/affinity-vae/pull/222
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


# ---- avae/data.py
class SubtomoDataset(Dataset):
    def __init__(self, n=48, size=8, n_classes=4, seed=0):
        rng = np.random.default_rng(seed)
        self.vols = rng.normal(size=(n, 1, size, size, size)).astype(np.float32)
        self.ids = rng.integers(0, n_classes, size=n).tolist()

    def __len__(self):
        return len(self.vols)

    def __getitem__(self, i):
        return {"vol": torch.from_numpy(self.vols[i]), "class_id": self.ids[i]}


def collate(samples):
    vols = torch.stack([s["vol"] for s in samples])
    ids = torch.Tensor([s["class_id"] for s in samples])
    return vols, ids


# ---- avae/loss.py
class AffinityLoss(nn.Module):
    def __init__(self, lookup):
        super().__init__()
        self.register_buffer("lookup", lookup)

    def forward(self, y_true, z):
        c = torch.combinations(torch.arange(len(y_true)), r=2)
        y_idx = y_true.long()
        target = self.lookup[y_idx[c[:, 0]], y_idx[c[:, 1]]]
        sim = F.cosine_similarity(z[c[:, 0]], z[c[:, 1]])
        return F.l1_loss(sim, target)


# ---- avae/model.py
class AffinityVAE(nn.Module):
    def __init__(self, size=8, latent=6):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(8 * size ** 3, 2 * latent))
        self.dec = nn.Sequential(nn.Linear(latent, size ** 3), nn.Unflatten(1, (1, size, size, size)))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar, z


if __name__ == "__main__":
    torch.manual_seed(0)
    lookup = torch.eye(4) * 1.5 - 0.5
    model, aff = AffinityVAE(), AffinityLoss(lookup)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for x, y in DataLoader(SubtomoDataset(), batch_size=8, shuffle=True, collate_fn=collate):
            recon, mu, logvar, z = model(x)
            kld = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
            loss = F.mse_loss(recon, x) + 0.1 * kld + aff(y, mu)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
