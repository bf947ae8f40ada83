"""deepethogram-style sequence LightningModule: one-hot int64 (N,K,T) labels into CrossEntropyLoss
source: https://github.com/jbohnslav/deepethogram/issues/91
reported-error: RuntimeError: Expected floating point type for target with class probabilities, got Long
outcome: RuntimeError: Expected floating point type for target with class probabilities, got Long at line 51
root-cause: line 46
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class SequenceDataset(Dataset):
    """features (T, F) per clip and one-hot behavior labels (K, T) loaded from a csv-like array"""

    def __init__(self, n_clips=12, T=30, n_feat=16, K=3):
        rng = np.random.default_rng(0)
        self.features = rng.standard_normal((n_clips, n_feat, T)).astype(np.float32)
        self.labels = (rng.random((n_clips, K, T)) > 0.7).astype(np.int64)

    def __len__(self):
        return len(self.features)

    def __getitem__(self, i):
        return {'features': torch.from_numpy(self.features[i]),
                'labels': torch.from_numpy(self.labels[i])}


class TGMJ(nn.Module):
    def __init__(self, n_feat=16, K=3):
        super().__init__()
        self.conv = nn.Conv1d(n_feat, 32, 5, padding=2)
        self.out = nn.Conv1d(32, K, 1)

    def forward(self, x):
        return self.out(F.relu(self.conv(x)))


class SequenceLightning(nn.Module):
    def __init__(self, model, cfg):
        super().__init__()
        self.model = model
        self.hparams = cfg
        self.criterion = nn.CrossEntropyLoss()  # root-cause

    def common_step(self, batch, batch_idx, split):
        images, labels = batch['features'], batch['labels']
        outputs = self.model(images)
        loss = self.criterion(outputs, labels)  # fails-here
        self.log(f'{split}_loss', loss)
        return loss

    def training_step(self, batch, batch_idx):
        return self.common_step(batch, batch_idx, 'train')

    def log(self, name, value):
        print(name, float(value))

    def configure_optimizers(self):
        return torch.optim.Adam(self.model.parameters(), lr=self.hparams['lr'])


def sequence_train(cfg):
    lightning_module = SequenceLightning(TGMJ(), cfg)
    loader = DataLoader(SequenceDataset(), batch_size=cfg['batch_size'], shuffle=True)
    opt = lightning_module.configure_optimizers()
    for epoch in range(cfg['num_epochs']):
        for i, batch in enumerate(loader):
            loss = lightning_module.training_step(batch, i)
            opt.zero_grad()
            loss.backward()
            opt.step()


sequence_train({'lr': 1e-3, 'batch_size': 4, 'num_epochs': 1})
