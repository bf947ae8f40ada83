"""scPoli-style trainer: a Dataset over an AnnData-like matrix returns float64 rows, the encoder is float32
source: https://github.com/theislab/scarches/issues/195
reported-error: RuntimeError: expected scalar type Float but found Double
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 61 (torch.cat of the float64 batch with the float32 embedding promotes to float64)
root-cause: line 43 (alt 28)
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class AnnDataLike:
    """Minimal stand-in for anndata.AnnData: .X, .obs (dict of columns)."""

    def __init__(self, X, obs):
        self.X = X
        self.obs = obs
        self.n_obs, self.n_vars = X.shape


def make_adata(n_cells=120, n_genes=50, seed=0):
    rng = np.random.default_rng(seed)
    counts = rng.poisson(2.0, size=(n_cells, n_genes))
    adata = AnnDataLike(counts, {"study": rng.integers(0, 3, n_cells), "cell_type": rng.integers(0, 4, n_cells)})
    # sc.pp.normalize_total(adata); sc.pp.log1p(adata)
    adata.X = np.log1p(adata.X / adata.X.sum(1, keepdims=True) * 1e4)  # root-cause-alt
    return adata


class AnnotatedDataset(Dataset):
    def __init__(self, adata, condition_key, cell_type_key):
        self.data = adata.X
        self.conditions = adata.obs[condition_key]
        self.cell_types = adata.obs[cell_type_key]

    def __len__(self):
        return self.data.shape[0]

    def __getitem__(self, index):
        return {
            "x": torch.from_numpy(self.data[index]),  # root-cause
            "batch": torch.tensor(self.conditions[index]),
            "celltypes": torch.tensor(self.cell_types[index]),
        }


class scPoli(nn.Module):
    def __init__(self, input_dim, n_conditions, embedding_dim=5, hidden=32, latent_dim=10):
        super().__init__()
        self.embedding = nn.Embedding(n_conditions, embedding_dim)
        self.encoder = nn.Sequential(nn.Linear(input_dim + embedding_dim, hidden), nn.ReLU())
        self.mean_encoder = nn.Linear(hidden, latent_dim)
        self.log_var_encoder = nn.Linear(hidden, latent_dim)
        self.decoder = nn.Sequential(nn.Linear(latent_dim + embedding_dim, hidden), nn.ReLU(),
                                     nn.Linear(hidden, input_dim))

    def forward(self, x, batch, celltypes):
        emb = self.embedding(batch)
        h = self.encoder(torch.cat([x, emb], dim=-1))  # fails-here
        mu, log_var = self.mean_encoder(h), self.log_var_encoder(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * log_var)
        recon = self.decoder(torch.cat([z, emb], dim=-1))
        recon_loss = ((recon - x) ** 2).sum(-1).mean()
        kl = -0.5 * torch.sum(1 + log_var - mu ** 2 - log_var.exp(), dim=-1).mean()
        return recon_loss, kl


class EarlyStopping:
    def __init__(self, patience=5):
        self.patience, self.best, self.bad = patience, float("inf"), 0

    def step(self, value):
        if value < self.best:
            self.best, self.bad = value, 0
        else:
            self.bad += 1
        return self.bad < self.patience


class scPoliTrainer:
    def __init__(self, model, adata, condition_key, cell_type_key, batch_size=32, lr=1e-3,
                 early_stopping_kwargs=None, eta=5):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.loader = DataLoader(AnnotatedDataset(adata, condition_key, cell_type_key),
                                 batch_size=batch_size, shuffle=True)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.early_stopping = EarlyStopping(**(early_stopping_kwargs or {}))
        self.eta = eta

    def on_epoch_end(self, epoch, loss):
        print(f"epoch {epoch}: loss {loss:.3f}")
        return self.early_stopping.step(loss)

    def train(self, n_epochs=3, pretraining_epochs=1):
        for epoch in range(n_epochs):
            total = 0.0
            for batch in self.loader:
                batch = {k: v.to(self.device) for k, v in batch.items()}
                recon_loss, kl = self.model(**batch)
                loss = recon_loss + (kl if epoch >= pretraining_epochs else 0.0) / self.eta
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                total += loss.item()
            if not self.on_epoch_end(epoch, total):
                break


if __name__ == "__main__":
    adata = make_adata()
    scpoli_model = scPoli(adata.n_vars, n_conditions=3)
    early_stopping_kwargs = {"patience": 3}
    trainer = scPoliTrainer(scpoli_model, adata, condition_key="study", cell_type_key="cell_type",
                            early_stopping_kwargs=early_stopping_kwargs, eta=5)
    trainer.train(n_epochs=4, pretraining_epochs=2)
