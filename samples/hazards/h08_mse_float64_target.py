"""H08: MSELoss with a float64 target.

No error in current PyTorch: the loss is promoted and computed in float64, gradients come
back float32. It runs, but it is wasted work and a sign that the pipeline makes float64.
"""
import numpy as np
import torch
from torch import nn


def make_dataset(n=256):
    rng = np.random.default_rng(1)
    x = rng.normal(size=(n, 6)).astype(np.float32)
    y = np.sin(x.sum(axis=1, keepdims=True)) * 0.5  # float32 * Python float, then np.sin
    y = y + rng.normal(scale=0.01, size=y.shape)    # float32 + float64 array -> float64  # expect: DG008
    return torch.from_numpy(x), torch.from_numpy(y)


def main():
    x, y = make_dataset()
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    for step in range(50):
        optimizer.zero_grad()
        pred = model(x)
        loss = criterion(pred, y)
        loss.backward()
        optimizer.step()
    print(f"loss dtype: {loss.dtype}, value {loss.item():.4f}")


if __name__ == "__main__":
    main()
