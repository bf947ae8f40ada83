"""A LightningModule fed float64 NumPy features (torch.from_numpy without .float()) through Trainer.fit."""
import lightning as L
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Regressor(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = nn.functional.mse_loss(self.net(x), y)  # FAILS-HERE
        self.log("loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


X = np.random.default_rng(0).normal(size=(64, 4))
y = X.sum(axis=1, keepdims=True)
ds = TensorDataset(torch.from_numpy(X), torch.from_numpy(y).float())
trainer = L.Trainer(max_epochs=1, accelerator="cpu", logger=False, enable_checkpointing=False, enable_progress_bar=False)
trainer.fit(Regressor(), DataLoader(ds, batch_size=16))
