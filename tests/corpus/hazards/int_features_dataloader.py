import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def click_counts(n=200, seed=1):
    rng = np.random.default_rng(seed)
    counts = rng.poisson(3.0, size=(n, 6))  # int64 counts
    converted = (counts.sum(axis=1) > 18).astype(np.float32)
    return TensorDataset(torch.from_numpy(counts), torch.from_numpy(converted).unsqueeze(1))  # expect: DG005


class CTRModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(6, 1)

    def forward(self, x):
        return self.linear(x)


def fit(model, dataset):
    loader = DataLoader(dataset, batch_size=32, shuffle=True)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.BCEWithLogitsLoss()
    for counts, converted in loader:
        opt.zero_grad()
        loss = loss_fn(model(counts), converted)
        loss.backward()
        opt.step()


if __name__ == "__main__":
    fit(CTRModel(), click_counts())
