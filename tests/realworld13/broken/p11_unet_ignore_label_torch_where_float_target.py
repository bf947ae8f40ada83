"""Small 2D U-Net-style segmenter whose remap_ignore() turns the 255 "unlabelled" pixels into -100 with torch.where(mask == 255, -100.0, mask); the float scalar promotes the whole Long mask to float32 and the CrossEntropyLoss(ignore_index=-100) in the training step refuses it
source: https://github.com/wolny/pytorch-3dunet/issues/55
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Int for argument #2 'target' (target dtype coming from the data pipeline config)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 56
root-cause: line 17
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

IGNORE = 255


def remap_ignore(mask):
    return torch.where(mask == IGNORE, -100.0, mask)  # root-cause


class SliceDataset(Dataset):
    def __init__(self, n=16, size=32, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.normal(size=(n, 1, size, size)).astype(np.float32)
        masks = rng.integers(0, 3, size=(n, size, size))
        masks[:, :4, :] = IGNORE
        self.masks = masks

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return torch.from_numpy(self.images[i]), remap_ignore(torch.from_numpy(self.masks[i]))


class TinyUNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU())
        self.pool = nn.MaxPool2d(2)
        self.mid = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(16, 16, 2, stride=2)
        self.out = nn.Conv2d(32, n_classes, 1)

    def forward(self, x):
        d = self.down(x)
        u = self.up(self.mid(self.pool(d)))
        return self.out(torch.cat([d, u], dim=1))


model = TinyUNet()
criterion = nn.CrossEntropyLoss(ignore_index=-100)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


def train_step(image, mask):
    loss = criterion(model(image), mask)  # fails-here
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


for image, mask in DataLoader(SliceDataset(), batch_size=4, shuffle=True):
    print("loss", train_step(image, mask))
