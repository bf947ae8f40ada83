"""Federated-learning simulation: labels wrapped with the legacy torch.Tensor constructor become float32 before CrossEntropyLoss
source: https://github.com/burlachenkok/flpytorch/pull/14
reported-error: simulations crash in compute_loss because CrossEntropyLoss gets floating-point labels (no verbatim message in the PR)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 23
root-cause: line 18
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader


def make_client_dataset(num_samples=40, num_features=20, num_classes=4, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.randn(num_samples, num_features).astype(np.float32)
    y = rng.randint(0, num_classes, size=num_samples)
    return TensorDataset(torch.Tensor(X), torch.Tensor(y))  # root-cause


def compute_loss(model, criterion, data, label):
    output = model(data)
    loss = criterion(output, label)  # fails-here
    return loss


def local_training(model, dataset, lr=0.1, local_epochs=1):
    loader = DataLoader(dataset, batch_size=8, shuffle=True)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(local_epochs):
        for data, label in loader:
            optimizer.zero_grad()
            loss = compute_loss(model, criterion, data, label)
            loss.backward()
            optimizer.step()
    return model


if __name__ == "__main__":
    global_model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 4))
    for client_id in range(2):
        local_training(global_model, make_client_dataset(seed=client_id))
