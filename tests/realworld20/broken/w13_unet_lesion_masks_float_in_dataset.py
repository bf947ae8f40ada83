"""Multi-class lesion segmentation with a small U-Net on dermoscopy-like images: the Dataset converts both image and mask with .type(torch.FloatTensor) before returning them, and the float class-index mask then reaches nn.CrossEntropyLoss
source: https://github.com/milesial/Pytorch-UNet/issues/133
reported-error: dataset.py was altered to return {'image': torch.from_numpy(img).type(torch.FloatTensor), 'mask': torch.from_numpy(mask).type(torch.FloatTensor)} for an 8-class segmentation, and the cross-entropy training broke
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 56
root-cause: line 30
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


# ---- utils/dataset.py
class BasicDataset(Dataset):
    def __init__(self, n=16, size=48, n_classes=4, seed=0):
        rng = np.random.default_rng(seed)
        self.imgs = rng.random((n, 3, size, size)).astype(np.float32)
        self.masks = np.zeros((n, size, size), np.uint8)
        for i in range(n):
            c = rng.integers(1, n_classes)
            y, x = rng.integers(0, size - 16, 2)
            self.masks[i, y:y + 16, x:x + 16] = c

    def __len__(self):
        return len(self.imgs)

    def __getitem__(self, i):
        return {"image": torch.from_numpy(self.imgs[i]).type(torch.FloatTensor),
                "mask": torch.from_numpy(self.masks[i]).type(torch.FloatTensor)}  # root-cause


# ---- unet/unet_model.py
class UNet(nn.Module):
    def __init__(self, n_channels=3, n_classes=4):
        super().__init__()
        self.inc = nn.Sequential(nn.Conv2d(n_channels, 16, 3, padding=1), nn.ReLU())
        self.down = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.outc = nn.Conv2d(32, n_classes, 1)

    def forward(self, x):
        x1 = self.inc(x)
        return self.outc(torch.cat([x1, self.up(self.down(x1))], 1))


# ---- train.py
def train_net(net, epochs=1, lr=0.01):
    loader = DataLoader(BasicDataset(), batch_size=4, shuffle=True)
    optimizer = torch.optim.RMSprop(net.parameters(), lr=lr, weight_decay=1e-8, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        for batch in loader:
            imgs, true_masks = batch["image"], batch["mask"]
            masks_pred = net(imgs)
            loss = criterion(masks_pred, true_masks)  # fails-here
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    train_net(UNet())
