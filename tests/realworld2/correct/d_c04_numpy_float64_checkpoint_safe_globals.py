"""Training checkpoint keeps a numpy.float64 metric; it is loaded with weights_only=True inside a safe_globals allowlist
source: https://github.com/pytorch/pytorch/issues/138985
reported-error: UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Can only build Tensor, parameter or OrderedDict objects, but got <class 'numpy.dtypes.Float64DType'>
outcome: ok
root-cause: none
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from numpy._core.multiarray import scalar


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 32)
        self.fc2 = nn.Linear(32, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def train(model, optimizer, steps=20):
    x = torch.randn(64, 10)
    y = x.sum(dim=1, keepdim=True)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return np.mean(losses[-5:])  # numpy.float64


def main():
    ckpt_dir = tempfile.mkdtemp()
    model = Net()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    val_loss = train(model, optimizer)
    checkpoint = {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "val_loss": val_loss}
    path = os.path.join(ckpt_dir, "checkpoint.pt")
    torch.save(checkpoint, path)

    with torch.serialization.safe_globals([scalar, np.dtype, np.dtypes.Float64DType]):
        checkpoint = torch.load(path, weights_only=True)
    restored = Net()
    restored.load_state_dict(checkpoint["model"])
    print(type(checkpoint["val_loss"]).__name__, float(checkpoint["val_loss"]))


if __name__ == "__main__":
    main()
