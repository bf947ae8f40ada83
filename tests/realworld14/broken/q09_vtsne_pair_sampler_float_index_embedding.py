"""Variational t-SNE (topic-SNE style) wrapper: PairSampler.sample() draws (i, j, p_ij) triples and returns them as one float tensor built with torch.tensor(np.stack(...)), so the point indices that VTSNE passes to its per-point nn.Embedding lookups are float
source: https://github.com/cemoody/topicsne/issues/5
reported-error: RuntimeError: Expected tensor for argument #1 'indices' to have scalar type Long; but got torch.cuda.IntTensor instead (while checking arguments for embedding)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.DoubleTensor instead (while checking arguments for embedding) at line 32
root-cause: line 21
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn


class PairSampler:
    def __init__(self, pij, rng):
        self.i, self.j = np.nonzero(pij)
        self.p = pij[self.i, self.j]
        self.rng = rng

    def sample(self, batch_size):
        k = self.rng.integers(0, len(self.p), batch_size)
        batch = torch.tensor(np.stack([self.i[k], self.j[k], self.p[k]], axis=1))  # root-cause
        return batch[:, 0], batch[:, 1], batch[:, 2]


class VTSNE(nn.Module):
    def __init__(self, n_points, n_dim=2):
        super().__init__()
        self.logits_mu = nn.Embedding(n_points, n_dim)
        self.logits_lv = nn.Embedding(n_points, n_dim)

    def sample_logits(self, idx):
        mu, lv = self.logits_mu(idx), self.logits_lv(idx)  # fails-here
        return mu + torch.randn_like(mu) * torch.exp(0.5 * lv)

    def forward(self, i, j, pij):
        xi, xj = self.sample_logits(i), self.sample_logits(j)
        qij = 1.0 / (1.0 + ((xi - xj) ** 2).sum(1))
        return -(pij.float() * torch.log(qij + 1e-9)).sum()


rng = np.random.default_rng(0)
X = rng.normal(size=(60, 5))
d = ((X[:, None] - X[None]) ** 2).sum(-1)
pij = np.exp(-d)
np.fill_diagonal(pij, 0.0)
pij /= pij.sum()
sampler = PairSampler(pij, rng)
model = VTSNE(60)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(10):
    loss = model(*sampler.sample(128))
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
