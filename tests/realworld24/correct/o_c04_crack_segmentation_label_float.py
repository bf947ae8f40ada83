"""Pavement crack segmentation whose dataset builds the 0/1 ground-truth map with .astype(np.float32) before torch.from_numpy, so every side-output BCEWithLogitsLoss gets a float32 target of the logits' shape
source: https://github.com/yhlleo/DeepSegmentor/pull/7
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class DeepCrackDataset(Dataset):
    def __init__(self, n=8, size=32):
        rng = np.random.default_rng(0)
        self.images = rng.integers(0, 256, (n, size, size, 3), dtype=np.uint8)
        self.labels = (rng.random((n, size, size)) > 0.9).astype(np.uint8) * 255

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        image = torch.from_numpy(self.images[i]).permute(2, 0, 1).float() / 255.0
        label = torch.from_numpy((self.labels[i] > 127).astype(np.float32)).unsqueeze(0)
        return {"image": image, "label": label}


class DeepCrackNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.side1 = nn.Conv2d(3, 1, 3, padding=1)
        self.side2 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))
        self.fuse = nn.Conv2d(2, 1, 1)

    def forward(self, x):
        s1, s2 = self.side1(x), self.side2(x)
        return [s1, s2, self.fuse(torch.cat([s1, s2], 1))]


if __name__ == "__main__":
    torch.manual_seed(0)
    net = DeepCrackNet()
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.SGD(net.parameters(), lr=1e-3, momentum=0.9)
    for batch in DataLoader(DeepCrackDataset(), batch_size=4, shuffle=True):
        loss = sum(criterion(out, batch["label"]) for out in net(batch["image"]))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"loss {loss.item():.4f}")
