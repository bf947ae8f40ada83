"""NeuS-style neural surface system in Lightning: the dataset's foreground masks come from NumPy image arithmetic (float64) and go straight into F.binary_cross_entropy against the float32 rendered opacity
source: https://github.com/bennyguo/instant-nsr-pl/issues/66
reported-error: RuntimeError: expected scalar type Float but found Double (launch.py -> trainer.fit(system, datamodule=dm))
outcome: RuntimeError: Found dtype Double but expected Float at line 46
root-cause: line 22
expect: DG007
"""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class RaysDataset(Dataset):
    def __init__(self, n_images=4, h=8, w=8):
        rng = np.random.default_rng(0)
        imgs = rng.integers(0, 256, size=(n_images, h, w, 4), dtype=np.uint8)
        rgba = imgs / 255.0
        self.rgb = torch.from_numpy(rgba[..., :3].reshape(-1, 3)).float()
        self.fg_mask = torch.from_numpy((rgba[..., 3] > 0.5).reshape(-1) * 1.0)  # root-cause
        self.dirs = torch.randn(len(self.rgb), 3)

    def __len__(self):
        return len(self.rgb)

    def __getitem__(self, i):
        return {"rays_d": self.dirs[i], "rgb": self.rgb[i], "fg_mask": self.fg_mask[i]}


class NeuSSystem(L.LightningModule):
    def __init__(self, lambda_mask=0.1):
        super().__init__()
        self.lambda_mask = lambda_mask
        self.field = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, rays_d):
        out = self.field(F.normalize(rays_d, dim=-1))
        return {"comp_rgb": torch.sigmoid(out[:, :3]), "opacity": torch.sigmoid(out[:, 3])}

    def training_step(self, batch, batch_idx):
        out = self(batch["rays_d"])
        loss = F.mse_loss(out["comp_rgb"], batch["rgb"])
        opacity = torch.clamp(out["opacity"], 1e-3, 1.0 - 1e-3)
        loss_mask = F.binary_cross_entropy(opacity, batch["fg_mask"])  # fails-here
        self.log("train/loss_mask", loss_mask)
        return loss + self.lambda_mask * loss_mask

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)


if __name__ == "__main__":
    loader = DataLoader(RaysDataset(), batch_size=64, shuffle=True)
    trainer = L.Trainer(max_epochs=1, limit_train_batches=2, logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False, accelerator="cpu")
    trainer.fit(NeuSSystem(), loader)
