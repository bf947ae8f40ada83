"""Multi-class U-Net training: the Dataset returns the mask as a FloatTensor, and train_net picks mask_type = torch.long for n_classes > 1 when moving it to the device (the repository's fix)
source: https://github.com/milesial/Pytorch-UNet/issues/93
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class BasicDataset(Dataset):
    def __init__(self, n=12, size=32, n_classes=3):
        rng = np.random.default_rng(0)
        self.imgs = rng.integers(0, 256, (n, size, size, 3), dtype=np.uint8)
        self.masks = rng.integers(0, n_classes, (n, size, size), dtype=np.uint8)

    def __len__(self):
        return len(self.imgs)

    def __getitem__(self, i):
        img = self.imgs[i].transpose((2, 0, 1)) / 255
        return {"image": torch.from_numpy(img).type(torch.FloatTensor), "mask": torch.from_numpy(self.masks[i]).type(torch.FloatTensor)}


class UNet(nn.Module):
    def __init__(self, n_channels, n_classes):
        super().__init__()
        self.n_classes = n_classes
        self.inc = nn.Sequential(nn.Conv2d(n_channels, 16, 3, padding=1), nn.ReLU())
        self.outc = nn.Conv2d(16, n_classes, 1)

    def forward(self, x):
        return self.outc(self.inc(x))


def train_net(net, device, epochs=1, batch_size=4, lr=0.001):
    loader = DataLoader(BasicDataset(n_classes=net.n_classes), batch_size=batch_size, shuffle=True)
    optimizer = torch.optim.RMSprop(net.parameters(), lr=lr, weight_decay=1e-8, momentum=0.9)
    criterion = nn.CrossEntropyLoss() if net.n_classes > 1 else nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        for batch in loader:
            imgs = batch["image"].to(device=device, dtype=torch.float32)
            mask_type = torch.float32 if net.n_classes == 1 else torch.long
            true_masks = batch["mask"].to(device=device, dtype=mask_type)
            loss = criterion(net(imgs), true_masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_net(UNet(3, 3).to(device), device)
