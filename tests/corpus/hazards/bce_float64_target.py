import numpy as np
import torch
from torch import nn


def load(n=100):
    rng = np.random.default_rng(9)
    x = rng.normal(size=(n, 4)).astype(np.float32)
    y = (x[:, :1] > 0) * 1.0  # bool * Python float -> float64
    return torch.from_numpy(x), torch.from_numpy(y)  # expect: DG007


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1), nn.Sigmoid())

    def forward(self, x):
        return self.body(x)


def main():
    x, y = load()
    model = Detector()
    criterion = nn.BCELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(10):
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
