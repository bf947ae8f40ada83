"""Wafer-map defect classifier with class-imbalance weights: the loss is built in a helper from a CPU tensor of inverse class frequencies (nn.CrossEntropyLoss(weight=weight)), the model and batches go to the GPU when one exists, and the weight is never moved
source: https://github.com/pytorch/pytorch/issues/3879
reported-error: Setting the weight argument in nn.Loss functions: when the weight Tensor is NOT .cuda() while the Variables going into the function are .cuda(), PyTorch raises an uninformative error
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but got weight is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_nll_loss_forward) (the class-weight tensor stays on the CPU; wording varies with the torch version; not run on a GPU for this set) at line 41; on CPU: ok
root-cause: line 24
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn

DEFECTS = ["none", "center", "edge-ring", "scratch"]


def load_wafer_maps(n=64, seed=0):
    rng = np.random.default_rng(seed)
    maps = rng.integers(0, 3, (n, 1, 26, 26)).astype(np.float32)
    labels = rng.choice(len(DEFECTS), n, p=[0.7, 0.1, 0.1, 0.1])
    return torch.from_numpy(maps), torch.from_numpy(labels)


def build_criterion(labels):
    counts = torch.bincount(labels, minlength=len(DEFECTS)).float().clamp(min=1)
    weight = counts.sum() / (len(DEFECTS) * counts)  # root-cause
    return nn.CrossEntropyLoss(weight=weight)


def build_model():
    return nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(), nn.Linear(128, len(DEFECTS)))


def train(epochs=2):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    maps, labels = load_wafer_maps()
    criterion = build_criterion(labels)
    model = build_model().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for i in range(0, len(maps), 16):
            x, y = maps[i:i + 16].to(device), labels[i:i + 16].to(device)
            loss = criterion(model(x), y)  # fails-here
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train()
