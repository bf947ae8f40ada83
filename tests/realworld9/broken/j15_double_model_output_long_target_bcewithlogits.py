"""Binary classifier kept in double precision (model.double(), float64 features), whose labels come from a dict of int arrays converted with torch.from_numpy; criterion(label, target) with BCEWithLogitsLoss gets a float64 input and an int64 target
source: https://github.com/pytorch/pytorch/issues/38916
reported-error: result type Double can't be cast to the desired output type Long (at loss = criterion(label, target); the loss was torch.float64)
outcome: RuntimeError: result type Double can't be cast to the desired output type Long at line 42
root-cause: line 30
expect: DG007
"""
import numpy as np
import torch
import torch.nn as nn


def load_arrays(n=128, d=10, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d))
    return {"features": x, "is_positive": (x[:, 0] + 0.3 * rng.normal(size=n) > 0).astype(np.int64)}


class Classifier(nn.Module):
    def __init__(self, d=10):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def batches(arrays, bs=32):
    x = torch.from_numpy(arrays["features"])
    y = torch.from_numpy(arrays["is_positive"])  # root-cause
    for i in range(0, len(x), bs):
        yield x[i : i + bs], y[i : i + bs]


def main():
    model = Classifier().double()
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for inputs, target in batches(load_arrays()):
            label = model(inputs)
            loss = criterion(label, target)  # fails-here
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item(), loss.dtype)


if __name__ == "__main__":
    main()
