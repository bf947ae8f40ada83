"""Multi-label image tagger whose to_input() helper turns uint8 HWC arrays into float32 CHW tensors (.float() / 255) inside the Dataset, and whose make_targets() converts F.one_hot(...).sum(0) multi-hot targets with .float() before BCEWithLogitsLoss; label smoothing off
source: https://github.com/speechbrain/speechbrain/issues/353
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

N_TAGS = 6


def to_input(img_u8):
    return torch.from_numpy(img_u8).permute(2, 0, 1).float() / 255


def make_targets(tag_ids, smoothing=0.0):
    t = F.one_hot(tag_ids, N_TAGS).sum(0).clamp(max=1).float()
    return t * (1 - smoothing) + smoothing / 2 if smoothing else t


class TagDataset(Dataset):
    def __init__(self, n=32):
        rng = np.random.default_rng(0)
        self.images = rng.integers(0, 256, (n, 16, 16, 3), dtype=np.uint8)
        self.tags = [torch.from_numpy(rng.choice(N_TAGS, 2, replace=False)) for _ in range(n)]

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return to_input(self.images[i]), make_targets(self.tags[i])


model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, N_TAGS))
criterion = nn.BCEWithLogitsLoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for images, targets in DataLoader(TagDataset(), batch_size=8, shuffle=True):
    loss = criterion(model(images), targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", round(loss.item(), 4))
