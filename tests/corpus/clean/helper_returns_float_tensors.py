"""Data is built in NumPy by a helper and converted once, with .float(), on the way out."""
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def make_regression(n_samples=256, n_features=10, noise=0.1, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_samples, n_features))
    coef = rng.uniform(-2, 2, size=n_features)
    y = X @ coef + noise * rng.standard_normal(n_samples)
    return torch.from_numpy(X).float(), torch.from_numpy(y).float().unsqueeze(-1)


def build_loader(batch_size=32):
    features, targets = make_regression()
    return DataLoader(TensorDataset(features, targets), batch_size=batch_size, shuffle=True)


def train(model, loader, epochs=3):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    criterion = nn.MSELoss()
    for _ in range(epochs):
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = criterion(model(xb), yb)
            loss.backward()
            optimizer.step()
    return loss.item()


if __name__ == "__main__":
    print(train(nn.Linear(10, 1), build_loader()))
