"""Training script whose checkpoint keeps a small HParams dataclass next to the state_dicts, and whose resume path allowlists exactly that trusted class with torch.serialization.safe_globals([HParams]) instead of turning weights_only off, so torch.load keeps its default weights_only=True
source: https://gitdocs.org/fix/pytorch-torch-load-weights-only-default-true-safe-globals-custom-class-unpicklingerror-2-6
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile
from dataclasses import asdict, dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.serialization import safe_globals


@dataclass
class HParams:
    hidden: int = 32
    lr: float = 1e-3
    epochs: int = 2


# ---- model.py
class Classifier(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, hp.hidden), nn.ReLU(), nn.Linear(hp.hidden, 3))

    def forward(self, x):
        return self.net(x)


# ---- checkpoint.py
def save_checkpoint(path, model, optimizer, hp, epoch):
    torch.save({"hparams": hp, "model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, path)


def load_checkpoint(path):
    with safe_globals([HParams]):
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
    model = Classifier(ckpt["hparams"])
    model.load_state_dict(ckpt["model"])
    optimizer = torch.optim.Adam(model.parameters(), lr=ckpt["hparams"].lr)
    optimizer.load_state_dict(ckpt["optimizer"])
    return model, optimizer, ckpt["hparams"], ckpt["epoch"]


def fit(model, optimizer, epochs, x, y):
    for _ in range(epochs):
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = torch.randn(64, 10), torch.randint(0, 3, (64,))
    hp = HParams()
    model = Classifier(hp)
    optimizer = torch.optim.Adam(model.parameters(), lr=hp.lr)
    fit(model, optimizer, hp.epochs, x, y)
    path = os.path.join(tempfile.mkdtemp(), "last.ckpt")
    save_checkpoint(path, model, optimizer, hp, hp.epochs)
    model, optimizer, hp, epoch = load_checkpoint(path)
    print("resumed at epoch", epoch, asdict(hp), "loss", round(fit(model, optimizer, 1, x, y), 4))
