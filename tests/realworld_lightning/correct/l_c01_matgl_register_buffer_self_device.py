"""Lightning potential model that keeps its normalisation constants as registered buffers and creates the per-step element mask with device=self.device, so nothing has to be moved by hand
source: https://github.com/materialyzeai/matgl/pull/133
reported-error: none (the merged change: register_buffer instead of .to(device) calls in the LightningModule)
outcome: ok
root-cause: -
expect: none
"""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class LightningPotential(L.LightningModule):
    def __init__(self, n_feat=10, data_mean=-3.2, data_std=0.7):
        super().__init__()
        self.register_buffer("data_mean", torch.tensor(data_mean))
        self.register_buffer("data_std", torch.tensor(data_std))
        self.net = nn.Sequential(nn.Linear(n_feat, 32), nn.SiLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1) * self.data_std + self.data_mean

    def training_step(self, batch, batch_idx):
        x, energy = batch
        site_mask = torch.ones(x.shape[0], device=self.device)
        site_mask[::4] = 0.5
        loss = torch.mean(site_mask * (self(x) - energy) ** 2)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    x = torch.randn(64, 10)
    energy = -3.2 + 0.7 * torch.randn(64)
    loader = DataLoader(TensorDataset(x, energy), batch_size=16, shuffle=True)
    trainer = L.Trainer(max_epochs=1, limit_train_batches=2, logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False, accelerator="auto", devices=1)
    trainer.fit(LightningPotential(), loader)
