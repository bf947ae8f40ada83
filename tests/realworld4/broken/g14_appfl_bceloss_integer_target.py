"""Federated client update for a binary classifier that outputs probabilities (one output unit + sigmoid): switching the loss to BCELoss while the targets stay integer class labels
source: https://github.com/APPFL/APPFL/issues/60
reported-error: RuntimeError: expected scalar type Long but found Float (and, once BCELoss is used, the targets have to be converted with target.to(torch.float32))
outcome: RuntimeError: Found dtype Long but expected Float at line 46
root-cause: line 29
expect: DG007
"""
import copy

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class DenseNetLike(nn.Module):
    def __init__(self, in_ch=1):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(in_ch, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.classifier = nn.Linear(8 * 16, 1)

    def forward(self, x):
        return torch.sigmoid(self.classifier(self.features(x).flatten(1)))


def make_client_data(n=64, seed=0):
    rng = np.random.default_rng(seed)
    x = torch.from_numpy(rng.normal(size=(n, 1, 16, 16)).astype(np.float32))
    y = torch.from_numpy(rng.integers(0, 2, size=n))  # root-cause
    return TensorDataset(x, y)


class ClientOptim:
    def __init__(self, cfg, model, loss_fn, train_data):
        self.cfg = cfg
        self.model = model
        self.loss_fn = loss_fn
        self.dataloader = DataLoader(train_data, batch_size=cfg["batch_size"], shuffle=True)

    def update(self):
        optimizer = torch.optim.SGD(self.model.parameters(), lr=self.cfg["lr"])
        for _ in range(self.cfg["num_local_epochs"]):
            for data, target in self.dataloader:
                optimizer.zero_grad()
                output = self.model(data)
                loss = self.loss_fn(output, target.reshape(-1, 1))  # fails-here
                loss.backward()
                optimizer.step()
        return copy.deepcopy(self.model.state_dict())


if __name__ == "__main__":
    cfg = {"batch_size": 16, "lr": 0.01, "num_local_epochs": 1, "num_clients": 2}
    global_model = DenseNetLike()
    loss_fn = nn.BCELoss()
    states = []
    for k in range(cfg["num_clients"]):
        client = ClientOptim(cfg, copy.deepcopy(global_model), loss_fn, make_client_data(seed=k))
        states.append(client.update())
    avg = {key: sum(s[key] for s in states) / len(states) for key in states[0]}
    global_model.load_state_dict(avg)
    print("round done")
