"""Weakly supervised abdominal organ segmentation on CHAOS-like CT slices: the preprocessing step windows Hounsfield units with NumPy arithmetic that yields float64 slices, the Dataset wraps them with torch.from_numpy, and the float32 U-Net-style encoder receives double tensors
source: https://github.com/runminjiang/PW4MedSeg/pull/1
reported-error: Fix dtype issue for CHAOS image preprocessing (cast to float32): Input type (double) and bias type (float) should be the same
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 51
root-cause: line 17
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


# ---- preprocess_chaos.py
def window_ct(hu, level=50.0, width=400.0):
    lo, hi = level - width / 2, level + width / 2
    img = (np.clip(hu, lo, hi) - lo) / (hi - lo)  # root-cause
    return img[None]


def fake_volume(n_slices=12, size=64, seed=0):
    rng = np.random.default_rng(seed)
    hu = rng.normal(-200, 300, (n_slices, size, size)).astype(np.int16)
    labels = np.zeros((n_slices, size, size), np.int64)
    labels[:, 20:40, 15:35] = 1  # liver
    labels[:, 30:45, 40:55] = 2  # kidney
    return hu, labels


# ---- dataset.py
class ChaosSlices(Dataset):
    def __init__(self, hu, labels):
        self.hu, self.labels = hu, labels

    def __len__(self):
        return len(self.hu)

    def __getitem__(self, i):
        img = torch.from_numpy(window_ct(self.hu[i]))
        return img, torch.from_numpy(self.labels[i])


# ---- model.py
class TinySegNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(16, n_classes, 1)

    def forward(self, x):
        return self.head(self.enc(x))  # fails-here


def train(epochs=1):
    hu, labels = fake_volume()
    loader = DataLoader(ChaosSlices(hu, labels), batch_size=4, shuffle=True)
    model = TinySegNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for epoch in range(epochs):
        for img, lab in loader:
            loss = nn.functional.cross_entropy(model(img), lab)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
