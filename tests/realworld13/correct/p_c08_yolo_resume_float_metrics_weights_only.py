"""YOLO-style trainer that converts the NumPy fitness with float(...) and the epoch with int(...) before saving, so the checkpoint holds only tensors and Python numbers and the resume torch.load(..., weights_only=True) works
source: https://github.com/mkang315/PK-YOLO/issues/6
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

LAST = os.path.join(tempfile.mkdtemp(), "last.pt")


def fitness(x):
    return np.dot(x, np.array([0.0, 0.0, 0.1, 0.9]))


def train(epochs, resume=False):
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.SiLU(), nn.Conv2d(8, 9, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937)
    start_epoch, best_fitness = 0, 0.0
    if resume:
        ckpt = torch.load(LAST, map_location="cpu", weights_only=True)
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        start_epoch, best_fitness = ckpt["epoch"] + 1, ckpt["best_fitness"]
    for epoch in range(start_epoch, epochs):
        loss = model(torch.rand(2, 3, 32, 32)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        best_fitness = max(best_fitness, float(fitness(np.random.default_rng(epoch).uniform(0.2, 0.6, 4))))
        torch.save({"epoch": int(epoch), "best_fitness": best_fitness,
                    "model": model.state_dict(), "optimizer": optimizer.state_dict()}, LAST)
        print(f"epoch {epoch}: best {best_fitness:.3f}")


train(epochs=2)
train(epochs=4, resume=True)
