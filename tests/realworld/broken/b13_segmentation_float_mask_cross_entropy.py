"""Semantic segmentation with 59 classes: ground-truth masks are float tensors passed to CrossEntropyLoss
source: https://github.com/pytorch/pytorch/issues/103813
reported-error: RuntimeError: expected scalar type Long but found Float
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 48
root-cause: line 26
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

NUM_CLASSES = 59


class SegDataset(Dataset):
    def __init__(self, n=8, size=32):
        self.images = np.random.rand(n, 3, size, size).astype(np.float32)
        self.masks = np.random.randint(0, NUM_CLASSES, size=(n, size, size))

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        image = torch.from_numpy(self.images[idx])
        mask = torch.from_numpy(self.masks[idx]).float()  # root-cause
        return image, mask


class TinySegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(16, NUM_CLASSES, 1)

    def forward(self, x):
        return self.head(self.enc(x))


model = TinySegNet()
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(SegDataset(), batch_size=4, shuffle=True)

for image, target in loader:
    optimizer.zero_grad()
    pred = model(image)
    loss = criterion(pred, target)  # fails-here
    loss.backward()
    optimizer.step()
