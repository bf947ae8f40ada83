"""MrVI-style single-cell VAE in a LightningModule: expression counts are float32 but the one-hot sample covariates are built with np.eye (float64); torch.cat in the decoder promotes the latent to float64 before the decoder Linear
source: https://github.com/YosefLab/mrvi_archive/issues/5
reported-error: RuntimeError: expected scalar type Double but found Float (model.train() -> trainer.fit -> module.inference)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 42
root-cause: line 20
expect: DG004
"""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class AnnDataset(Dataset):
    def __init__(self, n_cells=48, n_genes=20, n_samples=3):
        rng = np.random.default_rng(0)
        self.X = rng.poisson(2.0, size=(n_cells, n_genes)).astype(np.float32)
        sample_idx = rng.integers(0, n_samples, size=n_cells)
        self.sample_onehot = np.eye(n_samples)[sample_idx]  # root-cause

    def __len__(self):
        return len(self.X)

    def __getitem__(self, i):
        return {"X": torch.from_numpy(self.X[i]), "sample": torch.from_numpy(self.sample_onehot[i])}


class MrVIModule(L.LightningModule):
    def __init__(self, n_genes=20, n_samples=3, n_latent=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_genes, 32), nn.ReLU(), nn.Linear(32, 2 * n_latent))
        self.decoder = nn.Sequential(nn.Linear(n_latent + n_samples, 32), nn.ReLU(), nn.Linear(32, n_genes))

    def inference(self, x):
        qz_m, qz_logv = self.encoder(torch.log1p(x)).chunk(2, dim=-1)
        z = qz_m + torch.randn_like(qz_m) * torch.exp(0.5 * qz_logv)
        return z, qz_m, qz_logv

    def generative(self, z, sample):
        zs = torch.cat([z, sample], dim=-1)
        return self.decoder(zs).exp()  # fails-here

    def training_step(self, batch, batch_idx):
        x = batch["X"]
        z, m, logv = self.inference(x)
        rate = self.generative(z, batch["sample"])
        rec = torch.nn.functional.poisson_nll_loss(rate, x, log_input=False)
        kl = -0.5 * torch.mean(1 + logv - m.pow(2) - logv.exp())
        loss = rec + kl
        self.log("elbo", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    loader = DataLoader(AnnDataset(), batch_size=16, shuffle=True)
    trainer = L.Trainer(max_epochs=1, limit_train_batches=2, logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False, accelerator="cpu")
    trainer.fit(MrVIModule(), loader)
