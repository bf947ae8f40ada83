"""Imbalanced defect classifier where a RunConfig dataclass resolves the device once and build_criterion() creates the class-weight tensor with device=cfg.device, matching the model and batches
source: https://github.com/pytorch/pytorch/pull/150750
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def _pick_device():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


@dataclass
class RunConfig:
    n_classes: int = 3
    lr: float = 0.05
    device: torch.device = field(default_factory=_pick_device)


def build_criterion(labels, cfg):
    counts = np.bincount(labels, minlength=cfg.n_classes)
    weights = counts.sum() / (cfg.n_classes * np.maximum(counts, 1))
    return nn.CrossEntropyLoss(weight=torch.tensor(weights, dtype=torch.float32, device=cfg.device))


def train_one_epoch(model, loader, criterion, optimizer, cfg):
    for images, labels in loader:
        images, labels = images.to(cfg.device), labels.to(cfg.device)
        loss = criterion(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


cfg = RunConfig()
rng = np.random.default_rng(0)
labels_np = rng.choice(3, 120, p=[0.8, 0.15, 0.05])
images = torch.from_numpy(rng.normal(size=(120, 1, 16, 16)).astype(np.float32))
loader = DataLoader(TensorDataset(images, torch.from_numpy(labels_np)), batch_size=16, shuffle=True)
model = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 3)).to(cfg.device)
optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=0.9)
print("loss", train_one_epoch(model, loader, build_criterion(labels_np, cfg), optimizer, cfg))
