"""Imbalanced defect classifier: build_criterion() turns NumPy class counts into CrossEntropyLoss(weight=torch.tensor(...)) but never moves the criterion to the device, while the model and batches go to cuda in train_one_epoch
source: https://github.com/pytorch/pytorch/pull/150750
reported-error: RuntimeError: Expected all tensors to be on the same device, but got weight is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_nll_loss_forward)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but got weight is on cpu, different from other tensors on cuda:0 (the class weights stay on the CPU; the wording is the one quoted in the report and may differ between torch versions; not run on a GPU here) at line 24; on CPU: ok
root-cause: line 17
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def build_criterion(labels, n_classes):
    counts = np.bincount(labels, minlength=n_classes)
    weights = counts.sum() / (n_classes * np.maximum(counts, 1))
    return nn.CrossEntropyLoss(weight=torch.tensor(weights, dtype=torch.float32))  # root-cause


def train_one_epoch(model, loader, criterion, optimizer, device):
    model.train()
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        loss = criterion(model(images), labels)  # fails-here
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


rng = np.random.default_rng(0)
labels_np = rng.choice(3, 120, p=[0.8, 0.15, 0.05])
images = torch.from_numpy(rng.normal(size=(120, 1, 16, 16)).astype(np.float32))
loader = DataLoader(TensorDataset(images, torch.from_numpy(labels_np)), batch_size=16, shuffle=True)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 3)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
criterion = build_criterion(labels_np, 3)
for epoch in range(2):
    print("epoch", epoch, "loss", train_one_epoch(model, loader, criterion, optimizer, device))
