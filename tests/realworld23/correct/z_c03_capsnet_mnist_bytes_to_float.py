"""Capsule network on MNIST-like digits whose loader keeps the raw idx bytes as uint8 in NumPy and converts them with .float().div(255.0) after unsqueezing the channel axis
source: https://github.com/gram-ai/capsule-networks/issues/39
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH_SIZE = 8
NUM_CLASSES = 10


# ---- data.py (stands in for torchnet's MNIST dataset of raw idx bytes)
def get_iterator(n=32, seed=0):
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 256, (n, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, NUM_CLASSES, n)
    tensor = torch.from_numpy(data).unsqueeze(1).float().div(255.0)
    for i in range(0, n, BATCH_SIZE):
        yield tensor[i:i + BATCH_SIZE], torch.from_numpy(labels[i:i + BATCH_SIZE])


# ---- capsule_network.py
def squash(tensor, dim=-1):
    squared_norm = (tensor ** 2).sum(dim=dim, keepdim=True)
    scale = squared_norm / (1 + squared_norm)
    return scale * tensor / torch.sqrt(squared_norm + 1e-8)


class CapsuleNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, kernel_size=9, stride=1)
        self.primary = nn.Conv2d(32, 8 * 8, kernel_size=9, stride=2)
        self.route_weights = nn.Parameter(torch.randn(NUM_CLASSES, 8, 16) * 0.05)

    def forward(self, x):
        x = F.relu(self.conv1(x), inplace=True)
        u = self.primary(x)
        u = u.view(x.size(0), 8, -1).transpose(1, 2)
        u = squash(u)
        priors = torch.einsum("bnk,ckd->bncd", u, self.route_weights)
        v = squash(priors.mean(1))
        return v.norm(dim=-1)


class CapsuleLoss(nn.Module):
    def forward(self, classes, labels):
        onehot = F.one_hot(labels, NUM_CLASSES).float()
        left = F.relu(0.9 - classes) ** 2
        right = F.relu(classes - 0.1) ** 2
        return (onehot * left + 0.5 * (1.0 - onehot) * right).sum() / labels.size(0)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = CapsuleNet()
    optimizer = torch.optim.Adam(model.parameters())
    capsule_loss = CapsuleLoss()
    for data, labels in get_iterator():
        classes = model(data)
        loss = capsule_loss(classes, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss", loss.item())
