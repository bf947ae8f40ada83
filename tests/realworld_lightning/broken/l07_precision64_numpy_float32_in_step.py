"""Conditional regressor trained with Trainer(precision="64-true"): Lightning makes the weights and the batches float64, but a condition vector looked up from a float32 NumPy table inside training_step stays float32 and meets a float64 Linear
source: https://github.com/Lightning-AI/pytorch-lightning/issues/6927
reported-error: new tensors created in training_step are float32 when using precision=64 (the BoringModel assert on the dtype fails)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Float and Double at line 28
root-cause: line 27
expect: DG004
"""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class CondRegressor(L.LightningModule):
    def __init__(self, n_in=6, n_groups=4, cond_dim=3):
        super().__init__()
        rng = np.random.default_rng(0)
        self.cond_table = rng.normal(size=(n_groups, cond_dim)).astype(np.float32)  # root-cause-alt
        self.body = nn.Linear(n_in, 16)
        self.cond_proj = nn.Linear(cond_dim, 16)
        self.head = nn.Linear(16, 1)

    def training_step(self, batch, batch_idx):
        x, group, y = batch
        cond = torch.from_numpy(self.cond_table[group.numpy()])  # root-cause
        h = torch.tanh(self.body(x) + self.cond_proj(cond))  # fails-here
        loss = F.mse_loss(self.head(h), y)
        self.log("train_mse", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    x = torch.randn(64, 6)
    group = torch.randint(0, 4, (64,))
    y = torch.randn(64, 1)
    loader = DataLoader(TensorDataset(x, group, y), batch_size=16, shuffle=True)
    trainer = L.Trainer(max_epochs=1, limit_train_batches=2, logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False, accelerator="cpu", precision="64-true")
    trainer.fit(CondRegressor(), loader)
