"""CDVAE-style crystal VAE with property prediction: the LightningDataModule builds atom-fraction features and the scaled target property in NumPy (float64) in setup() and wraps them with torch.tensor without a dtype
source: https://github.com/txie-93/cdvae/issues/54
reported-error: RuntimeError: expected scalar type Float but found Double (trainer.fit with model.predict_property=True)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 43
root-cause: line 28
expect: DG004
"""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class CrystDataModule(L.LightningDataModule):
    def __init__(self, n=64, n_elem=10, batch_size=8):
        super().__init__()
        self.n, self.n_elem, self.batch_size = n, n_elem, batch_size

    def setup(self, stage=None):
        rng = np.random.default_rng(0)
        counts = rng.integers(0, 5, size=(self.n, self.n_elem))
        frac = counts / np.maximum(counts.sum(1, keepdims=True), 1)
        prop = rng.normal(-1.5, 0.4, size=(self.n, 1))
        self.scaler_mean, self.scaler_std = prop.mean(), prop.std()
        prop_scaled = (prop - self.scaler_mean) / self.scaler_std
        self.train_set = TensorDataset(torch.tensor(frac), torch.tensor(prop_scaled))  # root-cause

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True)


class CDVAE(L.LightningModule):
    def __init__(self, n_elem=10, latent_dim=16, predict_property=True):
        super().__init__()
        self.predict_property = predict_property
        self.encoder = nn.Sequential(nn.Linear(n_elem, 32), nn.SiLU(), nn.Linear(32, 2 * latent_dim))
        self.decoder = nn.Sequential(nn.Linear(latent_dim, 32), nn.SiLU(), nn.Linear(32, n_elem))
        self.fc_property = nn.Sequential(nn.Linear(latent_dim, 16), nn.SiLU(), nn.Linear(16, 1))

    def encode(self, frac):
        mu, log_var = self.encoder(frac).chunk(2, dim=-1)  # fails-here
        return mu, log_var, mu + torch.randn_like(mu) * torch.exp(0.5 * log_var)

    def training_step(self, batch, batch_idx):
        frac, prop = batch
        mu, log_var, z = self.encode(frac)
        recon = F.mse_loss(self.decoder(z).softmax(-1), frac)
        kld = -0.5 * torch.mean(1 + log_var - mu.pow(2) - log_var.exp())
        loss = recon + 0.01 * kld
        if self.predict_property:
            loss = loss + F.mse_loss(self.fc_property(mu), prop)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    trainer = L.Trainer(max_epochs=1, limit_train_batches=2, logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False, accelerator="cpu")
    trainer.fit(model=CDVAE(), datamodule=CrystDataModule())
