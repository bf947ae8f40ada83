"""Plain-torch port of a LightningModule fit loop: a checkpoint hook converts the model to half precision to write a compact fp16 checkpoint at the end of each epoch, and training goes on with the same Adam optimizer
source: https://github.com/Lightning-AI/pytorch-lightning/issues/16303
reported-error: RuntimeError: Found dtype Half but expected Float in optimizer
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::Half at line 49
root-cause: line 38
expect: DG015
"""
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class LitRegressor(nn.Module):
    def __init__(self, in_dim=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch):
        x, y = batch
        dtype = next(self.parameters()).dtype
        return nn.functional.mse_loss(self(x.to(dtype)).float(), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


class HalfCheckpoint:
    def __init__(self, dirpath):
        self.dirpath = dirpath

    def on_train_epoch_end(self, module, epoch):
        module.half()  # root-cause
        torch.save(module.state_dict(), os.path.join(self.dirpath, f"epoch={epoch}-fp16.ckpt"))


def fit(module, loader, callbacks, max_epochs=2):
    optimizer = module.configure_optimizers()
    for epoch in range(max_epochs):
        for batch in loader:
            loss = module.training_step(batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()  # fails-here
        print(f"epoch {epoch} loss {loss.item():.4f}")
        for cb in callbacks:
            cb.on_train_epoch_end(module, epoch)


torch.manual_seed(0)
x = torch.randn(64, 8)
y = x.sum(1, keepdim=True)
fit(LitRegressor(), DataLoader(TensorDataset(x, y), batch_size=16), [HalfCheckpoint(tempfile.mkdtemp())])
