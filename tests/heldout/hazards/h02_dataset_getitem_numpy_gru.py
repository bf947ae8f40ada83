"""Sensor-sequence classifier. The Dataset returns NumPy arrays and lets
default_collate turn them into tensors."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader


class SensorWindows(Dataset):
    def __init__(self, n=64, seq_len=20, channels=6, n_classes=4, seed=0):
        rng = np.random.RandomState(seed)
        self.signals = rng.randn(n, seq_len, channels)  # float64  # expect: DG004
        self.labels = rng.randint(0, n_classes, size=n)  # int64

    def __len__(self):
        return len(self.signals)

    def __getitem__(self, idx):
        window = self.signals[idx]
        window = (window - window.mean(axis=0)) / (window.std(axis=0) + 1e-6)
        return window, self.labels[idx]


class GRUClassifier(nn.Module):
    def __init__(self, channels=6, hidden=32, n_classes=4):
        super().__init__()
        self.gru = nn.GRU(channels, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, n_classes)

    def forward(self, x):
        _, h = self.gru(x)
        return self.fc(h[-1])


def train():
    loader = DataLoader(SensorWindows(), batch_size=16, shuffle=True)
    model = GRUClassifier()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(2):
        for i, (seq, label) in enumerate(loader):
            logits = model(seq)
            loss = F.cross_entropy(logits, label)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if i % 2 == 0:
                print(f"[{epoch}:{i}] loss={loss.item():.3f}")


if __name__ == "__main__":
    train()
