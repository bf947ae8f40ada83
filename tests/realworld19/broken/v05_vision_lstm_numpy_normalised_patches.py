"""Vision-LSTM style classifier (patch embedding + bidirectional mLSTM-like blocks written in pure torch): the dataset normalises HWC images with NumPy mean/std arrays, which turns the float32 pixels into float64, and torch.from_numpy keeps that dtype into the Conv2d patch embedding
source: https://github.com/NX-AI/vision-lstm/issues/22
reported-error: RuntimeError: expected scalar type Float but found Double
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 67
root-cause: line 28
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

MEAN = np.array([0.485, 0.456, 0.406])
STD = np.array([0.229, 0.224, 0.225])


class SyntheticImages(Dataset):
    def __init__(self, n=64, size=32, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.integers(0, 256, (n, size, size, 3), dtype=np.uint8)
        self.labels = rng.integers(0, 10, n)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        img = self.images[i].astype(np.float32) / 255.0
        img = (img - MEAN) / STD  # root-cause
        return torch.from_numpy(img.transpose(2, 0, 1)), int(self.labels[i])


class MatrixLSTMBlock(nn.Module):
    """Gated linear recurrence over the patch sequence, alternating direction per block."""

    def __init__(self, dim, reverse=False):
        super().__init__()
        self.reverse = reverse
        self.norm = nn.LayerNorm(dim)
        self.gates = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        h = self.norm(x)
        if self.reverse:
            h = h.flip(1)
        i, f, v = self.gates(h).chunk(3, -1)
        f = torch.sigmoid(f)
        state = torch.zeros_like(v[:, 0])
        outs = []
        for t in range(v.shape[1]):
            state = f[:, t] * state + torch.sigmoid(i[:, t]) * v[:, t]
            outs.append(state)
        h = torch.stack(outs, 1)
        if self.reverse:
            h = h.flip(1)
        return x + self.out(h)


class VisionLSTM(nn.Module):
    def __init__(self, dim=48, depth=4, patch=8, num_classes=10):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, stride=patch)
        self.blocks = nn.ModuleList([MatrixLSTMBlock(dim, reverse=bool(k % 2)) for k in range(depth)])
        self.head = nn.Linear(dim, num_classes)

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)  # fails-here
        for blk in self.blocks:
            x = blk(x)
        return self.head(x.mean(1))


def train_one_epoch(model, loader, opt):
    model.train()
    for images, labels in loader:
        loss = nn.functional.cross_entropy(model(images), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    model = VisionLSTM()
    loader = DataLoader(SyntheticImages(), batch_size=16, shuffle=True)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    print("loss", train_one_epoch(model, loader, opt))
