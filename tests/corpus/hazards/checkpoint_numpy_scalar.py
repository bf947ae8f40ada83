import os
import tempfile

import numpy as np
import torch
from torch import nn


def evaluate(model, x, y):
    with torch.no_grad():
        preds = model(x).argmax(dim=1).numpy()
    return np.mean(preds == y.numpy())  # a NumPy float64 scalar


def save_best(model, acc, path):
    torch.save({"state_dict": model.state_dict(), "best_acc": acc}, path)  # expect: DG011


def load_best(model, path):
    ckpt = torch.load(path, map_location="cpu")
    model.load_state_dict(ckpt["state_dict"])
    return ckpt["best_acc"]


model = nn.Linear(5, 3)
x, y = torch.randn(30, 5), torch.randint(0, 3, (30,))
with tempfile.TemporaryDirectory() as out_dir:
    path = os.path.join(out_dir, "best.pt")
    save_best(model, evaluate(model, x, y), path)
    best = load_best(model, path)

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
optimizer.zero_grad()
nn.functional.cross_entropy(model(x), y).backward()
optimizer.step()
