"""Quantization-friendly network with a precomputed (lookup-table) activation: the sample points and table are plain tensor attributes made in __init__, not buffers, so Lightning moves the weights to the GPU but not the table
source: https://github.com/es-ude/elastic-ai.creator/issues/267
reported-error: RuntimeError: Expected all tensors to be on the same device (precomputed activation functions with CUDA tensors, trainer.fit(model, train_dataloaders=dl_train, val_dataloaders=dl_val) with accelerator="auto")
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (the CUDA activations minus the CPU sample points) at line 22; on CPU: ok
root-cause: line 18
expect: DG009
"""
import lightning.pytorch as pl
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class PrecomputedTanh(nn.Module):
    def __init__(self, num_steps=33, lo=-4.0, hi=4.0):
        super().__init__()
        self.inputs = torch.linspace(lo, hi, num_steps)  # root-cause
        self.outputs = torch.tanh(self.inputs)

    def forward(self, x):
        diffs = x.unsqueeze(-1) - self.inputs  # fails-here
        idx = diffs.abs().argmin(dim=-1)
        y = self.outputs.to(x.device)[idx]
        return x + (y - x).detach()


class EEGNet(pl.LightningModule):
    def __init__(self, n_channels=8, n_classes=2):
        super().__init__()
        self.fc1 = nn.Linear(n_channels * 16, 32)
        self.act = PrecomputedTanh()
        self.fc2 = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x.flatten(1))))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_loss", F.cross_entropy(self(x), y))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    ds = TensorDataset(torch.randn(64, 8, 16), torch.randint(0, 2, (64,)))
    dl_train = DataLoader(ds, batch_size=16, shuffle=True)
    dl_val = DataLoader(ds, batch_size=16)
    trainer = pl.Trainer(max_epochs=1, limit_train_batches=2, limit_val_batches=1, num_sanity_val_steps=0,
                         logger=False, enable_checkpointing=False, enable_progress_bar=False,
                         enable_model_summary=False, accelerator="auto", devices=1)
    trainer.fit(EEGNet(), train_dataloaders=dl_train, val_dataloaders=dl_val)
