"""scTM-style topic model: counts saved with np.save, loaded with np.load and log1p-normalised to float64
source: https://github.com/JinmiaoChenLab/scTM/issues/5
reported-error: RuntimeError: expected scalar type Float but found Double
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 27
root-cause: line 46
expect: DG004
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Encoder(nn.Module):
    def __init__(self, n_genes, n_topics, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(n_genes, hidden)
        self.bn = nn.BatchNorm1d(hidden)
        self.mu = nn.Linear(hidden, n_topics)
        self.logvar = nn.Linear(hidden, n_topics)

    def forward(self, x):
        h = F.softplus(self.bn(self.fc1(x)))  # fails-here
        return self.mu(h), self.logvar(h)


class spatialTM(nn.Module):
    def __init__(self, n_genes, n_topics=10):
        super().__init__()
        self.encoder = Encoder(n_genes, n_topics)
        self.beta = nn.Parameter(torch.randn(n_topics, n_genes) * 0.01)

    def forward(self, x):
        mu, logvar = self.encoder(x)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        theta = F.softmax(z, dim=-1)
        log_rate = torch.log_softmax(theta @ self.beta, dim=-1)
        return log_rate, mu, logvar

    def train_model(self, counts, device="cuda:0", epochs=3, batch_size=32):
        self.to(device)
        X = torch.from_numpy(np.log1p(counts))  # root-cause
        lib = torch.from_numpy(counts.sum(1, keepdims=True).astype(np.float32))
        loader = DataLoader(TensorDataset(X, lib), batch_size=batch_size, shuffle=True)
        opt = torch.optim.Adam(self.parameters(), lr=1e-3)
        for epoch in range(epochs):
            for xb, lb in loader:
                xb, lb = xb.to(device), lb.to(device)
                log_rate, mu, logvar = self(xb)
                nll = -(xb * log_rate).sum(-1).mean()
                kl = -0.5 * torch.mean(1 + logvar - mu ** 2 - logvar.exp())
                loss = nll + kl
                opt.zero_grad()
                loss.backward()
                opt.step()
            print("epoch", epoch, loss.item())


def main():
    tmp = tempfile.mkdtemp()
    rng = np.random.default_rng(0)
    counts = rng.poisson(1.0, size=(128, 200))  # int64 count matrix
    np.save(os.path.join(tmp, "counts.npy"), counts)
    counts = np.load(os.path.join(tmp, "counts.npy"))
    print(counts.dtype)
    device = "cuda:0" if torch.cuda.is_available() else "cpu"
    model = spatialTM(n_genes=counts.shape[1], n_topics=10)
    model.train_model(counts, device=device)


if __name__ == "__main__":
    main()
