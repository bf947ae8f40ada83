"""A Pytorch-UNet-style multi-class run on KITTI-like semantic masks (re-typed: BasicDataset.preprocess shared by images and masks, train_net with the n_classes-dependent mask dtype, the reporter's squeeze(1) before CrossEntropyLoss): preprocess divides any array whose max is above 1 by 255, so the uint8 class maps (0..18) become floats below 0.08 and the .to(torch.long) in train_net truncates every pixel to class 0; training runs and learns to predict background everywhere
source: https://github.com/milesial/Pytorch-UNet/issues/228
reported-error: "I use the kitti dataset, and mask is uint8 type, pixel value is 0 to 18 ... when I use this code to train, the predict result is 0 ... my true mask_type is all 0, before line 75, the value is pixel value/255" (no exception)
outcome: ok (silent: every true_masks batch holds the single class 0 after .to(torch.long), the 19 KITTI classes never reach CrossEntropyLoss)
root-cause: line 81
expect: DG006
"""
import logging
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim
from torch.utils.data import DataLoader, Dataset, random_split

torch.manual_seed(0)
rng = np.random.default_rng(0)
logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")

N_KITTI_CLASSES = 19  # KITTI semantic labels 0..18


def write_kitti_like_split(root, n=12, h=48, w=64):
    """What the reporter had on disk: RGB frames and single-channel uint8 label maps (0..18)."""
    os.makedirs(os.path.join(root, "imgs"))
    os.makedirs(os.path.join(root, "masks"))
    for i in range(n):
        img = rng.integers(0, 256, size=(h, w, 3), dtype=np.uint8)
        mask = np.zeros((h, w), dtype=np.uint8)
        mask[h // 2:, :] = 7                                  # road
        mask[: h // 3, :] = 10                                # sky
        mask[h // 3: h // 2, rng.integers(0, w // 2):] = rng.integers(11, 19)  # vehicles, poles, ...
        np.save(os.path.join(root, "imgs", f"{i:06d}.npy"), img)
        np.save(os.path.join(root, "masks", f"{i:06d}.npy"), mask)


def open_image(path):
    """Image.open stand-in: the decoded array, as np.array(Image.open(path)) gives it."""
    return np.load(path)


def resize_nearest(arr, new_w, new_h):
    """pil_img.resize((newW, newH)) stand-in (nearest neighbour, keeps the dtype)."""
    h, w = arr.shape[:2]
    rows = (np.arange(new_h) * h // new_h)
    cols = (np.arange(new_w) * w // new_w)
    return arr[rows][:, cols]


class BasicDataset(Dataset):
    def __init__(self, imgs_dir, masks_dir, scale=1, mask_suffix=""):
        self.imgs_dir = imgs_dir
        self.masks_dir = masks_dir
        self.scale = scale
        self.mask_suffix = mask_suffix
        assert 0 < scale <= 1, "Scale must be between 0 and 1"
        self.ids = sorted(os.path.splitext(f)[0] for f in os.listdir(imgs_dir) if not f.startswith("."))
        logging.info(f"Creating dataset with {len(self.ids)} examples")

    def __len__(self):
        return len(self.ids)

    @classmethod
    def preprocess(cls, pil_img, scale):
        h, w = pil_img.shape[:2]
        newW, newH = int(scale * w), int(scale * h)
        assert newW > 0 and newH > 0, "Scale is too small"
        pil_img = resize_nearest(pil_img, newW, newH)

        img_nd = np.array(pil_img)

        if len(img_nd.shape) == 2:
            img_nd = np.expand_dims(img_nd, axis=2)

        # HWC to CHW
        img_trans = img_nd.transpose((2, 0, 1))
        if img_trans.max() > 1:
            img_trans = img_trans / 255  # root-cause

        return img_trans

    def __getitem__(self, i):
        idx = self.ids[i]
        mask = open_image(os.path.join(self.masks_dir, idx + self.mask_suffix + ".npy"))
        img = open_image(os.path.join(self.imgs_dir, idx + ".npy"))
        assert img.shape[:2] == mask.shape[:2], f"Image and mask {idx} should be the same size"

        img = self.preprocess(img, self.scale)
        mask = self.preprocess(mask, self.scale)

        return {
            "image": torch.from_numpy(img).type(torch.FloatTensor),
            "mask": torch.from_numpy(mask).type(torch.FloatTensor),
        }


class DoubleConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.double_conv = nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(inplace=True),
            nn.Conv2d(out_channels, out_channels, kernel_size=3, padding=1),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(inplace=True),
        )

    def forward(self, x):
        return self.double_conv(x)


class UNet(nn.Module):
    """The repository's UNet, two levels deep and narrow."""

    def __init__(self, n_channels, n_classes, bilinear=True):
        super().__init__()
        self.n_channels = n_channels
        self.n_classes = n_classes
        self.bilinear = bilinear
        self.inc = DoubleConv(n_channels, 16)
        self.down1 = nn.Sequential(nn.MaxPool2d(2), DoubleConv(16, 32))
        self.down2 = nn.Sequential(nn.MaxPool2d(2), DoubleConv(32, 32))
        self.up1 = DoubleConv(64, 16)
        self.up2 = DoubleConv(32, 16)
        self.outc = nn.Conv2d(16, n_classes, kernel_size=1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x3 = self.down2(x2)
        x = F.interpolate(x3, size=x2.shape[-2:], mode="bilinear", align_corners=True)
        x = self.up1(torch.cat([x2, x], dim=1))
        x = F.interpolate(x, size=x1.shape[-2:], mode="bilinear", align_corners=True)
        x = self.up2(torch.cat([x1, x], dim=1))
        return self.outc(x)


def train_net(net, device, dir_img, dir_mask, epochs=2, batch_size=2, lr=0.001, val_percent=0.1, img_scale=0.5):
    dataset = BasicDataset(dir_img, dir_mask, img_scale)
    n_val = int(len(dataset) * val_percent)
    n_train = len(dataset) - n_val
    train, val = random_split(dataset, [n_train, n_val], generator=torch.Generator().manual_seed(0))
    train_loader = DataLoader(train, batch_size=batch_size, shuffle=True, num_workers=0)

    optimizer = optim.RMSprop(net.parameters(), lr=lr, weight_decay=1e-8, momentum=0.9)
    if net.n_classes > 1:
        criterion = nn.CrossEntropyLoss()
    else:
        criterion = nn.BCEWithLogitsLoss()

    classes_seen = set()
    for epoch in range(epochs):
        net.train()
        epoch_loss = 0
        for batch in train_loader:
            imgs = batch["image"]
            true_masks = batch["mask"]
            assert imgs.shape[1] == net.n_channels

            imgs = imgs.to(device=device, dtype=torch.float32)
            mask_type = torch.float32 if net.n_classes == 1 else torch.long
            true_masks = true_masks.to(device=device, dtype=mask_type)  # root-cause-alt
            true_masks = true_masks.squeeze(1)  # the reporter's change for CrossEntropyLoss
            classes_seen.update(torch.unique(true_masks).tolist())

            masks_pred = net(imgs)
            loss = criterion(masks_pred, true_masks)
            epoch_loss += loss.item()

            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_value_(net.parameters(), 0.1)
            optimizer.step()
        logging.info(f"epoch {epoch + 1}: loss {epoch_loss / len(train_loader):.4f}")

    print(f"distinct classes in true_masks: {len(classes_seen)} {sorted(classes_seen)}")
    with torch.no_grad():
        net.eval()
        pred = net(dataset[0]["image"][None].to(device=device, dtype=torch.float32)).argmax(1)
    print(f"predicted classes on a training frame: {sorted(torch.unique(pred).tolist())}")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as root:
        write_kitti_like_split(root)
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        net = UNet(n_channels=3, n_classes=20, bilinear=True)
        net.to(device=device)
        train_net(net, device, os.path.join(root, "imgs"), os.path.join(root, "masks"))
