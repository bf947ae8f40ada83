"""inVAE-style conditional VAE: a custom collate_fn stacks per-cell NumPy rows (expression and one-hot covariates, float64) into batches that reach float32 encoders
source: https://github.com/theislab/inVAE/issues/1
reported-error: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float (from model.train -> module.elbo -> forward)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 50
root-cause: line 39
expect: DG005
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class AnnDataLike:
    def __init__(self, n_obs=96, n_vars=30, seed=0):
        rng = np.random.default_rng(seed)
        self.X = np.log1p(rng.poisson(3.0, size=(n_obs, n_vars)).astype(np.float32))
        self.obs = pd.DataFrame({"batch": rng.choice(["b1", "b2", "b3"], n_obs), "cell_type": rng.choice(["T", "B"], n_obs)})


class CellDataset(Dataset):
    def __init__(self, adata, inv_covar_keys, spur_covar_keys):
        self.X = adata.X
        self.inv = pd.get_dummies(adata.obs[inv_covar_keys]).values.astype(float)  # root-cause-alt
        self.spur = pd.get_dummies(adata.obs[spur_covar_keys]).values.astype(float)

    def __len__(self):
        return self.X.shape[0]

    def __getitem__(self, i):
        return self.X[i], self.inv[i], self.spur[i]


def collate_cells(rows):
    x = np.stack([r[0] for r in rows])
    inv = np.stack([r[1] for r in rows])
    spur = np.stack([r[2] for r in rows])
    return torch.from_numpy(x), torch.from_numpy(inv), torch.from_numpy(spur)  # root-cause


class FinVAEmodule(nn.Module):
    def __init__(self, data_dim, inv_dim, spur_dim, latent_dim=6, hidden=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(data_dim + inv_dim + spur_dim, hidden), nn.ReLU(), nn.Linear(hidden, 2 * latent_dim))
        self.prior_inv = nn.Linear(inv_dim, 2 * latent_dim)
        self.decoder = nn.Sequential(nn.Linear(latent_dim + spur_dim, hidden), nn.ReLU(), nn.Linear(hidden, data_dim))

    def forward(self, x, inv_covar, spur_covar):
        mu, logvar = self.encoder(torch.cat([x, inv_covar, spur_covar], 1)).chunk(2, 1)  # fails-here
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        prior_mu, prior_logvar = self.prior_inv(inv_covar).chunk(2, 1)
        return self.decoder(torch.cat([z, spur_covar], 1)), mu, logvar, prior_mu, prior_logvar

    def elbo(self, x, inv_covar, spur_covar):
        recon, mu, logvar, pmu, plogvar = self.forward(x, inv_covar, spur_covar)
        rec = ((recon - x) ** 2).sum(1)
        kl = 0.5 * (plogvar - logvar + (logvar.exp() + (mu - pmu) ** 2) / plogvar.exp() - 1).sum(1)
        return (-rec - kl).mean(), rec.mean()


class inVAE:
    def __init__(self, adata, inv_covar_keys, spur_covar_keys, batch_size=32):
        self.dataset = CellDataset(adata, inv_covar_keys, spur_covar_keys)
        self.loader = DataLoader(self.dataset, batch_size=batch_size, shuffle=True, collate_fn=collate_cells)
        self.module = FinVAEmodule(adata.X.shape[1], self.dataset.inv.shape[1], self.dataset.spur.shape[1])

    def train(self, n_epochs=2, lr_train=1e-3, weight_decay=6e-4):
        optimizer = torch.optim.Adam(self.module.parameters(), lr=lr_train, weight_decay=weight_decay)
        for epoch in range(n_epochs):
            for x, inv_covar, spur_covar in self.loader:
                optimizer.zero_grad(set_to_none=True)
                objective_fct, _ = self.module.elbo(x, inv_covar, spur_covar)
                objective_fct.mul(-1).backward()
                optimizer.step()
            print(f"epoch {epoch} elbo {objective_fct.item():.3f}")


if __name__ == "__main__":
    adata = AnnDataLike()
    model = inVAE(adata, inv_covar_keys=["cell_type"], spur_covar_keys=["batch"])
    model.train(n_epochs=2)
