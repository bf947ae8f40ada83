"""float64 NumPy data is built in one helper, wrapped in another, and only fails in train()."""
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def read_features(n_rows=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, 7))
    y = (X[:, 0] + X[:, 3] > 0).astype(np.int64)
    return X, y


def make_loader(batch_size=64):
    X, y = read_features()
    dataset = TensorDataset(torch.from_numpy(X), torch.from_numpy(y))  # expect: DG004
    return DataLoader(dataset, batch_size=batch_size, shuffle=True)


class Classifier(nn.Module):
    def __init__(self, n_in=7, n_out=2):
        super().__init__()
        self.fc1 = nn.Linear(n_in, 32)
        self.fc2 = nn.Linear(32, n_out)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def train(model, loader, epochs=2):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    for _ in range(epochs):
        for batch_x, batch_y in loader:
            optimizer.zero_grad()
            logits = model(batch_x)
            loss = criterion(logits, batch_y)
            loss.backward()
            optimizer.step()


def main():
    train(Classifier(), make_loader())


if __name__ == "__main__":
    main()
