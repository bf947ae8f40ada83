"""Physics-style regression script that deliberately runs in double precision: torch.set_default_dtype(torch.float64) is the first statement, before any model or tensor exists, and the NumPy (float64) data matches it
source: https://github.com/pytorch/pytorch/issues/2138
reported-error: none (thread: "I tried torch.set_default_dtype(torch.float64) and it solved it" when called before building the network)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)


class LandmarkNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 8 * 8, 2)

    def forward(self, x):
        x = nn.functional.max_pool2d(torch.relu(self.conv1(x)), 2)
        return torch.sigmoid(self.fc(x.flatten(1)))


def make_batch(rng, n=8, size=16):
    centers = rng.uniform(4, 12, size=(n, 2))
    yy, xx = np.mgrid[0:size, 0:size]
    imgs = np.exp(-((xx[None] - centers[:, 0, None, None]) ** 2 + (yy[None] - centers[:, 1, None, None]) ** 2) / 8.0)
    return torch.from_numpy(imgs[:, None]), torch.from_numpy(centers / size)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    network = LandmarkNet()
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(network.parameters(), lr=1e-3)
    for epoch in range(3):
        images, landmarks = make_batch(rng)
        loss = criterion(network(images), landmarks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.6f} dtype {loss.dtype}")
