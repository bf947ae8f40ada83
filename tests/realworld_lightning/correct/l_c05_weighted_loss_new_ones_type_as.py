"""Custom weighted loss inside a LightningModule that creates its weights with errors.new_ones(...) and its margin with torch.tensor(...).type_as(pred), so both follow the model to whatever device Lightning picks
source: https://github.com/Lightning-AI/pytorch-lightning/issues/17851
reported-error: none (tensors made in the step are derived from existing tensors, so they land on the same device)
outcome: ok
root-cause: -
expect: none
"""
import lightning as L
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class WeightedTopLoss(nn.Module):
    def __init__(self, alpha=5.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, y_pred, y_true):
        errors = (y_true - y_pred) ** 2
        k = max(int(y_pred.size(0) * 0.1), 1)
        _, indices = torch.topk(y_pred, k)
        weights = errors.new_ones(errors.shape)
        weights[indices] = self.alpha
        margin = torch.tensor(0.01).type_as(y_pred)
        return torch.mean(weights * errors) + margin


class Model(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))
        self.loss_fn = WeightedTopLoss()

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = self.loss_fn(self.net(x).squeeze(-1), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_loss", self.loss_fn(self.net(x).squeeze(-1), y))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    ds = TensorDataset(torch.randn(128, 12), torch.randn(128))
    trainer = L.Trainer(max_epochs=1, limit_train_batches=2, limit_val_batches=1, num_sanity_val_steps=0,
                        logger=False, enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False, accelerator="auto", devices=1)
    trainer.fit(Model(), DataLoader(ds, batch_size=32, shuffle=True), DataLoader(ds, batch_size=32))
