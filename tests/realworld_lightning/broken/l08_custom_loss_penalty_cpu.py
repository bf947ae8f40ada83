"""Stock-return regressor with a custom nn.Module loss that builds its top-10% penalty weights with torch.ones(..., dtype=torch.float32) and no device, multiplied with errors that live on the model's device
source: https://github.com/Lightning-AI/pytorch-lightning/issues/17299
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (at weighted_errors = penalty_factor * errors)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (the CPU penalty weights times the CUDA errors) at line 26; on CPU: ok
root-cause: line 24
expect: DG009
"""
import lightning as L
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class AvgReturnTop10Loss(nn.Module):
    def __init__(self, alpha=5.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, y_pred, y_true):
        errors = torch.pow(y_true - y_pred, 2)
        top_10_percent = max(int(y_pred.size(0) * 0.1), 1)
        order = torch.argsort(y_pred, descending=True)
        errors = errors[order]
        penalty_factor = torch.ones(y_pred.size(0), dtype=torch.float32)  # root-cause
        penalty_factor[:top_10_percent] = self.alpha
        weighted_errors = penalty_factor * errors  # fails-here
        return torch.mean(torch.abs(weighted_errors))


class ReturnModel(L.LightningModule):
    def __init__(self, n_features=12):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, 32), nn.ReLU(), nn.Linear(32, 1))
        self.loss_fn = AvgReturnTop10Loss()

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = self.loss_fn(self.net(x).squeeze(-1), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    loader = DataLoader(TensorDataset(torch.randn(128, 12), torch.randn(128)), batch_size=32, shuffle=True)
    trainer = L.Trainer(max_epochs=1, limit_train_batches=2, logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False, accelerator="auto", devices=1)
    trainer.fit(ReturnModel(), loader)
