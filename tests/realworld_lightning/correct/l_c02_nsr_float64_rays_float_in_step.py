"""Neural-field system whose dataset still returns float64 rays and masks from NumPy, converted with .float() at the top of training_step before the field MLP and the mask BCE
source: https://github.com/bennyguo/instant-nsr-pl/issues/95
reported-error: none (fixed version: the float64 batch is converted once where it enters the step)
outcome: ok
root-cause: -
expect: none
"""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class RaysDataset(Dataset):
    def __init__(self, n=256):
        rng = np.random.default_rng(0)
        self.rays_d = rng.normal(size=(n, 3))
        self.fg_mask = (rng.random(n) > 0.5) * 1.0

    def __len__(self):
        return len(self.rays_d)

    def __getitem__(self, i):
        return {"rays_d": torch.from_numpy(self.rays_d[i]), "fg_mask": torch.tensor(self.fg_mask[i])}


class FieldSystem(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.field = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1))

    def training_step(self, batch, batch_idx):
        rays_d = batch["rays_d"].float()
        fg_mask = batch["fg_mask"].float()
        opacity = torch.sigmoid(self.field(F.normalize(rays_d, dim=-1))).squeeze(-1)
        opacity = opacity.clamp(1e-3, 1.0 - 1e-3)
        loss_mask = F.binary_cross_entropy(opacity, fg_mask)
        self.log("train/loss_mask", loss_mask)
        return loss_mask

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)


if __name__ == "__main__":
    loader = DataLoader(RaysDataset(), batch_size=64, shuffle=True)
    trainer = L.Trainer(max_epochs=1, limit_train_batches=2, logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False, accelerator="cpu")
    trainer.fit(FieldSystem(), loader)
