"""Single-cell VAE save/load (scvi-tools model.save layout): besides the module state, the saved model.pt carries an attr_dict of registry information with NumPy arrays (gene names, per-batch library-size means); loading it back with the default weights_only=True refuses the NumPy reconstruct global
source: https://github.com/scverse/scvi-tools/issues/192
reported-error: UnpicklingError ... model_test = scvi.model.SCVI.load("model_untagged_3.17/", data) -> _load_saved_files(...) (Weights only load failed after scvi.model.SCVI.save(model, "path_to_model/"))
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 55
root-cause: line 50
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


class VAE(nn.Module):
    def __init__(self, n_genes, n_latent=4):
        super().__init__()
        self.encoder = nn.Linear(n_genes, 2 * n_latent)
        self.decoder = nn.Linear(n_latent, n_genes)

    def forward(self, x):
        mu, logvar = self.encoder(torch.log1p(x)).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.decoder(z), mu, logvar


class SCVI:
    def __init__(self, counts, gene_names, batch):
        self.module = VAE(counts.shape[1])
        self.counts = torch.from_numpy(counts.astype(np.float32))
        self.registry = {
            "var_names": gene_names,
            "library_log_means": np.array([np.log(counts[batch == b].sum(1)).mean() for b in np.unique(batch)]),
        }

    def train(self, epochs=20):
        opt = torch.optim.Adam(self.module.parameters(), lr=1e-2)
        for _ in range(epochs):
            rec, mu, logvar = self.module(self.counts)
            kl = -0.5 * (1 + logvar - mu ** 2 - logvar.exp()).sum(1).mean()
            loss = ((rec - torch.log1p(self.counts)) ** 2).sum(1).mean() + kl
            opt.zero_grad()
            loss.backward()
            opt.step()
        return loss.item()

    def save(self, dir_path):
        os.makedirs(dir_path, exist_ok=True)
        attr_dict = {"registry": self.registry, "n_genes": self.counts.shape[1]}  # root-cause
        torch.save({"model_state_dict": self.module.state_dict(), "attr_dict": attr_dict}, os.path.join(dir_path, "model.pt"))

    @classmethod
    def load(cls, dir_path, counts, batch):
        saved = torch.load(os.path.join(dir_path, "model.pt"))  # fails-here
        model = cls(counts, saved["attr_dict"]["registry"]["var_names"], batch)
        model.module.load_state_dict(saved["model_state_dict"])
        return model


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    counts = rng.poisson(2.0, (100, 30)) + 1
    batch = rng.integers(0, 2, 100)
    genes = np.array([f"gene{i}" for i in range(30)])
    model = SCVI(counts, genes, batch)
    print(f"train loss {model.train():.3f}")
    out_dir = os.path.join(tempfile.mkdtemp(), "model_untagged")
    model.save(out_dir)
    model_test = SCVI.load(out_dir, counts, batch)
    print("reloaded", type(model_test).__name__)
