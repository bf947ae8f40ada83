"""Regression on float64 batches loaded from .npy files, trained deliberately in double precision with Trainer(precision="64-true"): the weights, the batches and tensors made in training_step are all float64
source: https://github.com/Lightning-AI/pytorch-lightning/issues/9171
reported-error: none (float64 NumPy batches; the model runs in float64 on purpose)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class NpyBatches(Dataset):
    def __init__(self, folder):
        self.files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".npy"))

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        arr = np.load(self.files[i])
        return torch.from_numpy(arr[:, :-1]), torch.from_numpy(arr[:, -1:])


class DoubleRegressor(L.LightningModule):
    def __init__(self, n_in=5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 16), nn.Tanh(), nn.Linear(16, 1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        x, y = x.squeeze(0), y.squeeze(0)
        noise = 1e-3 * torch.randn(x.shape)
        loss = F.mse_loss(self.net(x + noise), y)
        self.log("train_mse", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    folder = tempfile.mkdtemp()
    rng = np.random.default_rng(0)
    for k in range(4):
        np.save(os.path.join(folder, f"batch_{k}.npy"), rng.normal(size=(32, 6)))
    loader = DataLoader(NpyBatches(folder), batch_size=1, shuffle=True)
    trainer = L.Trainer(max_epochs=1, limit_train_batches=2, logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False, accelerator="cpu", precision="64-true")
    trainer.fit(DoubleRegressor(), loader)
