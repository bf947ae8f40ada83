"""DeepEthogram-style sequence model in Lightning: per-frame behavior labels are stored one-hot as int64 and passed to F.cross_entropy, which treats a target shaped like the logits as class probabilities and needs it floating
source: https://github.com/jbohnslav/deepethogram/issues/88
reported-error: RuntimeError: Expected floating point type for target with class probabilities, got Long (sequence_train -> trainer.fit(lightning_module))
outcome: RuntimeError: Expected floating point type for target with class probabilities, got Long at line 44
root-cause: line 21
expect: DG006
"""
import lightning.pytorch as pl
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class SequenceDataset(Dataset):
    def __init__(self, n_frames=400, n_features=32, n_behaviors=4, seq_len=20):
        rng = np.random.default_rng(0)
        self.features = torch.from_numpy(rng.normal(size=(n_frames, n_features)).astype(np.float32))
        labels = rng.integers(0, n_behaviors, size=n_frames)
        self.labels = torch.from_numpy(np.eye(n_behaviors, dtype=np.int64)[labels])  # root-cause
        self.seq_len = seq_len

    def __len__(self):
        return len(self.features) // self.seq_len

    def __getitem__(self, i):
        s = slice(i * self.seq_len, (i + 1) * self.seq_len)
        return self.features[s].T, self.labels[s].T


class TGMJ(pl.LightningModule):
    def __init__(self, n_features=32, n_behaviors=4):
        super().__init__()
        self.h = nn.Conv1d(n_features, 16, kernel_size=1)
        self.classifier = nn.Conv1d(16, n_behaviors, kernel_size=1)

    def forward(self, x):
        return self.classifier(torch.relu(self.h(x)))

    def training_step(self, batch, batch_idx):
        features, labels = batch
        logits = self(features)
        loss = F.cross_entropy(logits, labels)  # fails-here
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    loader = DataLoader(SequenceDataset(), batch_size=4, shuffle=True)
    trainer = pl.Trainer(max_epochs=1, limit_train_batches=2, logger=False, enable_checkpointing=False,
                         enable_progress_bar=False, enable_model_summary=False, accelerator="cpu")
    trainer.fit(TGMJ(), loader)
