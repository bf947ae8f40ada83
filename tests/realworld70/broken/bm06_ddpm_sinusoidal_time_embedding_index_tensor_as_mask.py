"""A DDPM in the style of PapersReimplementations' ddpm notebook (re-typed: sinusoidal_embedding, the frozen nn.Embedding time table written through weight.data, _make_te, the DDPM forward process) trained on a 2-D ring: sinusoidal_embedding's "sin_mask" is an int64 index tensor (torch.arange(0, n, 2)) used as a row mask, so embedding[1 - sin_mask] writes cos(sin(even rows)) into the odd rows in reverse order; training runs, but the time table has no positional structure
source: https://github.com/BrianPulfer/PapersReimplementations/issues/9
reported-error: "there is something strange about your positional encoding ... if you plot embeddings @ embeddings.T you get an image like this ... I tried that with your code and the image is completely different" (maintainer: "You are absolutely right, there has been a mistake in the way positional embeddings were generated")
outcome: ok (silent: the time table printed as "time embedding: neighbouring-timestep cosine similarity mean 0.196 (min 0.000)", where a sinusoidal table gives about 0.98; row 0 is all zeros and odd timesteps carry cos(sin(.)) of far-away even rows; the DDPM still trains)
root-cause: line 23
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)


def sinusoidal_embedding(n, d):
    # Returns the standard positional embedding
    embedding = torch.tensor([[i / 10_000 ** (2 * j / d) for j in range(d)] for i in range(n)])
    sin_mask = torch.arange(0, n, 2)  # root-cause-alt

    embedding[sin_mask] = torch.sin(embedding[sin_mask])
    embedding[1 - sin_mask] = torch.cos(embedding[sin_mask])  # root-cause

    return embedding


class MyDDPM(nn.Module):
    def __init__(self, network, n_steps=200, min_beta=10 ** -4, max_beta=0.02):
        super().__init__()
        self.n_steps, self.network = n_steps, network
        self.betas = torch.linspace(min_beta, max_beta, n_steps)
        self.alphas = 1 - self.betas
        self.alpha_bars = torch.tensor([torch.prod(self.alphas[: i + 1]) for i in range(len(self.alphas))])

    def forward(self, x0, t, eta=None):
        n, d = x0.shape
        a_bar = self.alpha_bars[t]
        if eta is None:
            eta = torch.randn(n, d)
        return a_bar.sqrt().reshape(n, 1) * x0 + (1 - a_bar).sqrt().reshape(n, 1) * eta

    def backward(self, x, t):
        return self.network(x, t)


class MyMLPNet(nn.Module):
    """The UNet's time handling (frozen sinusoidal nn.Embedding + one _make_te per block) around an MLP for 2-D data."""

    def __init__(self, n_steps=200, time_emb_dim=100, width=128):
        super().__init__()
        self.time_embed = nn.Embedding(n_steps, time_emb_dim)
        self.time_embed.weight.data = sinusoidal_embedding(n_steps, time_emb_dim)
        self.time_embed.requires_grad_(False)
        self.te1, self.te2, self.te3 = (self._make_te(time_emb_dim, c) for c in (2, width, width))
        self.b1 = nn.Sequential(nn.Linear(2, width), nn.SiLU())
        self.b2 = nn.Sequential(nn.Linear(width, width), nn.SiLU())
        self.b3 = nn.Sequential(nn.Linear(width, width), nn.SiLU())
        self.out = nn.Linear(width, 2)

    def forward(self, x, t):
        t = self.time_embed(t)
        h = self.b1(x + self.te1(t))
        h = self.b2(h + self.te2(t))
        h = self.b3(h + self.te3(t))
        return self.out(h)

    def _make_te(self, dim_in, dim_out):
        return nn.Sequential(nn.Linear(dim_in, dim_out), nn.SiLU(), nn.Linear(dim_out, dim_out))


def ring(n):
    theta = rng.uniform(0, 2 * np.pi, n)
    r = 1.0 + rng.normal(0, 0.05, n)
    return np.stack([r * np.cos(theta), r * np.sin(theta)], 1).astype(np.float32)


n_steps = 200
ddpm = MyDDPM(MyMLPNet(n_steps=n_steps), n_steps=n_steps)
table = ddpm.network.time_embed.weight.detach()
sim = F.cosine_similarity(table[:-1], table[1:])
print(f"time embedding: neighbouring-timestep cosine similarity mean {sim.mean().item():.3f} (min {sim.min().item():.3f})")

data = torch.from_numpy(ring(4096))
optim = torch.optim.Adam(ddpm.parameters(), lr=2e-3)
for epoch in range(6):
    epoch_loss = 0.0
    for x0 in data.split(256):
        n = len(x0)
        eta = torch.randn_like(x0)
        t = torch.randint(0, n_steps, (n,))
        noisy = ddpm(x0, t, eta)
        loss = F.mse_loss(ddpm.backward(noisy, t), eta)
        optim.zero_grad()
        loss.backward()
        optim.step()
        epoch_loss += loss.item() * n / len(data)
    print(f"epoch {epoch}: loss {epoch_loss:.4f}")
