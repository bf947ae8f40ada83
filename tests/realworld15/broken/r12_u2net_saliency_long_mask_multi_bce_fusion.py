"""U-2-Net style salient-object training: the dataset binarises the mask with (mask > 127).astype(np.int64), and muti_bce_loss_fusion() applies nn.BCELoss to every side output against the Long labels_v
source: https://github.com/xuebinqin/U-2-Net/issues/25
reported-error: RuntimeError: expected dtype Half but got dtype Long (BCE loss with the mask tensor as target)
outcome: RuntimeError: Found dtype Long but expected Float at line 48
root-cause: line 24
expect: DG007
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class SalObjDataset(Dataset):
    def __init__(self, n=16, size=32, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.random((n, 3, size, size)).astype(np.float32)
        self.masks = (rng.random((n, 1, size, size)) * 255).astype(np.uint8)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        label = (self.masks[i] > 127).astype(np.int64)  # root-cause
        return {"image": torch.from_numpy(self.images[i]), "label": torch.from_numpy(label)}


class TinyU2Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stage1 = nn.Conv2d(3, 8, 3, padding=1)
        self.stage2 = nn.Conv2d(8, 8, 3, padding=1)
        self.side1, self.side2 = nn.Conv2d(8, 1, 1), nn.Conv2d(8, 1, 1)
        self.fuse = nn.Conv2d(2, 1, 1)

    def forward(self, x):
        h1 = torch.relu(self.stage1(x))
        h2 = torch.relu(self.stage2(h1))
        d1, d2 = self.side1(h1), self.side2(h2)
        d0 = self.fuse(torch.cat([d1, d2], 1))
        return torch.sigmoid(d0), torch.sigmoid(d1), torch.sigmoid(d2)


bce_loss = nn.BCELoss(reduction="mean")


def muti_bce_loss_fusion(d0, d1, d2, labels_v):
    loss0 = bce_loss(d0, labels_v)  # fails-here
    loss1 = bce_loss(d1, labels_v)
    loss2 = bce_loss(d2, labels_v)
    return loss0, loss0 + loss1 + loss2


net = TinyU2Net()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
for data in DataLoader(SalObjDataset(), batch_size=4, shuffle=True):
    inputs_v, labels_v = data["image"], data["label"]
    d0, d1, d2 = net(inputs_v)
    loss2, loss = muti_bce_loss_fusion(d0, d1, d2, labels_v)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("fused loss", loss2.item())
