import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def make_sequences(n=64, steps=15, features=3):
    rng = np.random.default_rng(2)
    seqs = rng.normal(size=(n, steps, features)).astype(np.float32)
    labels = (seqs[:, -1, 0] > 0).astype(np.int64)
    return TensorDataset(torch.from_numpy(seqs), torch.from_numpy(labels))


class SeqClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 16, batch_first=True)
        self.fc = nn.Linear(16, 2)

    def forward(self, x):
        _, h = self.gru(x)
        return self.fc(h[-1])


def fit(model, loader, epochs=2):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(epochs):
        for seq, label in loader:
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(seq), label)
            loss.backward()
            opt.step()


if __name__ == "__main__":
    fit(SeqClassifier(), DataLoader(make_sequences(), batch_size=16, shuffle=True))
