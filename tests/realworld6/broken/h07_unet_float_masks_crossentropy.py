"""Multi-class U-Net training where BasicDataset returns the mask as a float tensor (scaled like the image) and it goes straight into nn.CrossEntropyLoss
source: https://github.com/milesial/Pytorch-UNet/issues/93
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Float for argument #2 'target' (from criterion(masks_pred, true_masks))
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 72
root-cause: line 41
expect: DG006
"""
import argparse
import logging

import numpy as np
import torch
import torch.nn as nn
from torch import optim
from torch.utils.data import DataLoader, Dataset, random_split


class BasicDataset(Dataset):
    def __init__(self, n=20, size=32, n_classes=3, scale=1.0):
        rng = np.random.default_rng(0)
        self.imgs = rng.integers(0, 256, (n, size, size, 3), dtype=np.uint8)
        self.masks = rng.integers(0, n_classes, (n, size, size), dtype=np.uint8)
        self.scale = scale

    def __len__(self):
        return len(self.imgs)

    @classmethod
    def preprocess(cls, pil_img, scale):
        img_nd = np.array(pil_img)
        if len(img_nd.shape) == 2:
            img_nd = np.expand_dims(img_nd, axis=2)
        img_trans = img_nd.transpose((2, 0, 1))
        if img_trans.max() > 1:
            img_trans = img_trans / 255
        return img_trans

    def __getitem__(self, i):
        img = self.preprocess(self.imgs[i], self.scale)
        mask = np.array(self.masks[i])
        return {"image": torch.from_numpy(img).type(torch.FloatTensor), "mask": torch.from_numpy(mask).type(torch.FloatTensor)}  # root-cause


class UNet(nn.Module):
    def __init__(self, n_channels, n_classes):
        super().__init__()
        self.n_classes = n_classes
        self.inc = nn.Sequential(nn.Conv2d(n_channels, 16, 3, padding=1), nn.ReLU())
        self.down = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.outc = nn.Conv2d(32, n_classes, 1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.up(self.down(x1))
        return self.outc(torch.cat([x1, x2], 1))


def train_net(net, device, epochs=1, batch_size=4, lr=0.001, val_percent=0.1):
    dataset = BasicDataset(n_classes=net.n_classes)
    n_val = int(len(dataset) * val_percent)
    train, val = random_split(dataset, [len(dataset) - n_val, n_val])
    train_loader = DataLoader(train, batch_size=batch_size, shuffle=True)
    optimizer = optim.RMSprop(net.parameters(), lr=lr, weight_decay=1e-8, momentum=0.9)
    criterion = nn.CrossEntropyLoss() if net.n_classes > 1 else nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        net.train()
        for batch in train_loader:
            imgs = batch["image"].to(device=device, dtype=torch.float32)
            true_masks = batch["mask"].to(device=device)
            masks_pred = net(imgs)
            loss = criterion(masks_pred, true_masks)  # fails-here
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        logging.info(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("-e", "--epochs", type=int, default=1)
    parser.add_argument("-v", "--validation", dest="val", type=float, default=10.0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = UNet(n_channels=3, n_classes=3).to(device)
    train_net(net=net, device=device, epochs=args.epochs, val_percent=args.val / 100)
