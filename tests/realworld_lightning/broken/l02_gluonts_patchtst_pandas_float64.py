"""PatchTST-style forecaster trained with Lightning on a pandas series: the window Dataset slices the float64 DataFrame values in __init__ and torch.from_numpy keeps them float64
source: https://github.com/awslabs/gluonts/issues/3198
reported-error: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float (PatchTSTEstimator.train -> trainer.fit)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 44
root-cause: line 21
expect: DG004
"""
import lightning.pytorch as pl
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class WindowDataset(Dataset):
    def __init__(self, df, context_length=32, prediction_length=8):
        values = df["target"].to_numpy()
        n = len(values) - context_length - prediction_length + 1
        windows = np.stack([values[i:i + context_length + prediction_length] for i in range(n)])
        self.past = torch.from_numpy(windows[:, :context_length])  # root-cause
        self.future = torch.from_numpy(windows[:, context_length:]).float()

    def __len__(self):
        return len(self.past)

    def __getitem__(self, i):
        return {"past_target": self.past[i], "future_target": self.future[i]}


class PatchTSTModel(pl.LightningModule):
    def __init__(self, context_length=32, prediction_length=8, patch_len=8, d_model=16):
        super().__init__()
        self.patch_len = patch_len
        self.patch_proj = nn.Linear(patch_len, d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead=2, dim_feedforward=32, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1)
        self.head = nn.Linear(d_model * (context_length // patch_len), prediction_length)

    def forward(self, past_target):
        loc = past_target.mean(dim=1, keepdim=True)
        scale = past_target.std(dim=1, keepdim=True) + 1e-5
        patches = ((past_target - loc) / scale).unfold(1, self.patch_len, self.patch_len)
        h = self.encoder(self.patch_proj(patches))  # fails-here
        return self.head(h.flatten(1)) * scale + loc

    def training_step(self, batch, batch_idx):
        pred = self(batch["past_target"])
        loss = nn.functional.l1_loss(pred, batch["future_target"])
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    idx = pd.date_range("2024-01-01", periods=200, freq="h")
    df = pd.DataFrame({"target": np.sin(np.arange(200) / 10.0) + np.random.default_rng(0).normal(0, 0.1, 200)}, index=idx)
    loader = DataLoader(WindowDataset(df), batch_size=16, shuffle=True)
    trainer = pl.Trainer(max_epochs=1, limit_train_batches=2, logger=False, enable_checkpointing=False,
                         enable_progress_bar=False, enable_model_summary=False, accelerator="cpu")
    trainer.fit(model=PatchTSTModel(), train_dataloaders=loader)
