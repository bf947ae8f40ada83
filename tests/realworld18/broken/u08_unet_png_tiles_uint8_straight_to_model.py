"""Binary segmentation example: the tile Dataset returns the PNG-like HWC uint8 image transposed to CHW with torch.from_numpy but never converted to float; the uint8 batch reaches the first Conv2d of the small U-Net
source: https://github.com/qubvel-org/segmentation_models.pytorch/pull/1230
reported-error: the forward input image dtype is uint8 in these examples (binary_segmentation_intro.ipynb ...); fix: convert the input image to float and scale to [0,1]
outcome: RuntimeError: Input type (unsigned char) and bias type (float) should be the same at line 44
root-cause: line 30
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


def synthetic_tiles(n, size=32, seed=0):
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 256, size=(n, size, size, 3), dtype=np.uint8)
    masks = (images.mean(-1) > 127).astype(np.uint8)
    return images, masks


class TileDataset(Dataset):
    def __init__(self, images, masks):
        self.images, self.masks = images, masks

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        image = torch.from_numpy(self.images[i].transpose(2, 0, 1).copy())  # root-cause
        mask = torch.from_numpy(self.masks[i][None].astype(np.float32))
        return {"image": image, "mask": mask}


class TinyUNet(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU())
        self.enc2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(c, 2 * c, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(2 * c, c, 2, stride=2)
        self.head = nn.Conv2d(2 * c, 1, 1)

    def forward(self, x):
        e1 = self.enc1(x)  # fails-here
        e2 = self.enc2(e1)
        return self.head(torch.cat([self.up(e2), e1], 1))


def dice_loss(logits, mask, eps=1.0):
    p = torch.sigmoid(logits)
    inter = (p * mask).sum((1, 2, 3))
    return 1 - ((2 * inter + eps) / (p.sum((1, 2, 3)) + mask.sum((1, 2, 3)) + eps)).mean()


images, masks = synthetic_tiles(32)
loader = DataLoader(TileDataset(images, masks), batch_size=8, shuffle=True)
model = TinyUNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    for batch in loader:
        logits = model(batch["image"])
        loss = F.binary_cross_entropy_with_logits(logits, batch["mask"]) + dice_loss(logits, batch["mask"])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "loss", round(loss.item(), 4))
