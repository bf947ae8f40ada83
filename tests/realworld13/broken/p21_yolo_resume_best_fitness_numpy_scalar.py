"""YOLO-style detector trainer that stores best_fitness computed with np.dot over the (P, R, mAP@.5, mAP@.5:.95) vector, a numpy.float64, in last.pt; the --resume path reloads it with the default torch.load, now weights_only=True
source: https://github.com/mkang315/PK-YOLO/issues/6
reported-error: _pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only if you trust the source of the checkpoint.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 33
root-cause: line 46
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

SAVE_DIR = tempfile.mkdtemp()
LAST = os.path.join(SAVE_DIR, "last.pt")


def fitness(x):
    w = np.array([0.0, 0.0, 0.1, 0.9])
    return np.dot(x, w)


def build_model():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.SiLU(), nn.Conv2d(8, 9, 1))


def train(epochs, resume=False):
    model = build_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937, nesterov=True)
    start_epoch, best_fitness = 0, 0.0
    if resume:
        ckpt = torch.load(LAST)  # fails-here
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        start_epoch, best_fitness = ckpt["epoch"] + 1, ckpt["best_fitness"]
    for epoch in range(start_epoch, epochs):
        loss = model(torch.rand(2, 3, 32, 32)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        results = np.random.default_rng(epoch).uniform(0.2, 0.6, size=4)
        fi = fitness(results)
        if fi > best_fitness:
            best_fitness = fi
        ckpt = {"epoch": epoch, "best_fitness": best_fitness,  # root-cause
                "model": model.state_dict(), "optimizer": optimizer.state_dict()}
        torch.save(ckpt, LAST)
        print(f"epoch {epoch}: fitness {fi:.3f} best {best_fitness:.3f}")


if __name__ == "__main__":
    train(epochs=2)
    train(epochs=4, resume=True)
