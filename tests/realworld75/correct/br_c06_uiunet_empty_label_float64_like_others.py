"""The UIU-Net-style infrared small-target run of br06 (danfenghong/IEEE_TIP_UIU-Net #14) with the empty masks typed like the others: ToTensorLab converts an empty uint8 mask to float64 (the other masks are float64 after the division by their maximum), so every batch the worker collates is float64 and the loop casts it to float32 as train.py does
source: https://github.com/danfenghong/IEEE_TIP_UIU-Net/issues/14
reported-error: File "train.py", line 139, in <module>: for i, data in enumerate(salobj_dataloader): ... RuntimeError: Caught RuntimeError in DataLoader worker process 0. ... RuntimeError: torch.cat(): input types can't be cast to the desired output type Byte (with two other datasets, "in one epoch, different batches" fail)
outcome: ok
root-cause: -
expect: none
"""
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def resize_nearest(arr, size):
    h, w = arr.shape[:2]
    rows = (np.arange(size) * h / size).astype(int)
    cols = (np.arange(size) * w / size).astype(int)
    return arr[rows][:, cols]


class RescaleT:
    def __init__(self, output_size):
        self.output_size = output_size

    def __call__(self, sample):
        imidx, image, label = sample["imidx"], sample["image"], sample["label"]
        img = resize_nearest(image, self.output_size).astype(np.float64) / 255.0  # skimage resize: float in [0, 1]
        lbl = resize_nearest(label, self.output_size)  # preserve_range=True, order=0: the mask keeps its dtype
        return {"imidx": imidx, "image": img, "label": lbl}


class RandomCrop:
    def __init__(self, output_size):
        self.output_size = (output_size, output_size)

    def __call__(self, sample):
        imidx, image, label = sample["imidx"], sample["image"], sample["label"]
        if random.random() >= 0.5:
            image, label = image[::-1], label[::-1]
        h, w = image.shape[:2]
        new_h, new_w = self.output_size
        top, left = np.random.randint(0, h - new_h), np.random.randint(0, w - new_w)
        return {"imidx": imidx, "image": image[top:top + new_h, left:left + new_w], "label": label[top:top + new_h, left:left + new_w]}


class ToTensorLab:
    def __init__(self, flag=0):
        self.flag = flag

    def __call__(self, sample):
        imidx, image, label = sample["imidx"], sample["image"], sample["label"]
        if np.max(label) < 1e-6:
            label = label.astype(np.float64)
        else:
            label = label / np.max(label)
        tmpImg = np.zeros((image.shape[0], image.shape[1], 3))
        image = image / np.max(image)
        tmpImg[:, :, 0] = (image[:, :, 0] - 0.485) / 0.229
        tmpImg[:, :, 1] = (image[:, :, 0] - 0.485) / 0.229
        tmpImg[:, :, 2] = (image[:, :, 0] - 0.485) / 0.229
        tmpImg = tmpImg.transpose((2, 0, 1)).copy()
        tmpLbl = label.transpose((2, 0, 1)).copy()
        return {"imidx": torch.from_numpy(imidx), "image": torch.from_numpy(tmpImg), "label": torch.from_numpy(tmpLbl)}


class SalObjDataset(Dataset):
    def __init__(self, frames, masks, transform=None):
        self.frames, self.masks, self.transform = frames, masks, transform

    def __len__(self):
        return len(self.frames)

    def __getitem__(self, idx):
        image, label = self.frames[idx], self.masks[idx]  # io.imread: uint8 (H, W)
        imidx = np.array([idx])
        image, label = image[:, :, np.newaxis], label[:, :, np.newaxis]
        sample = {"imidx": imidx, "image": image, "label": label}
        if self.transform:
            sample = self.transform(sample)
        return sample


class TinyUIUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, x):
        return torch.sigmoid(self.body(x))


def make_frames(n, rng):
    frames, masks = [], []
    for i in range(n):
        frame = rng.integers(20, 60, size=(72, 72), dtype=np.uint8)
        mask = np.zeros((72, 72), np.uint8)
        if i % 3 != 0:  # a third of the frames hold no small target
            r, c = rng.integers(10, 60, size=2)
            frame[r:r + 3, c:c + 3] = 250
            mask[r:r + 3, c:c + 3] = 255
        frames.append(frame)
        masks.append(mask)
    return frames, masks


if __name__ == "__main__":
    torch.manual_seed(0)
    np.random.seed(0)
    random.seed(0)
    frames, masks = make_frames(24, np.random.default_rng(0))
    salobj_dataset = SalObjDataset(frames, masks, transform=lambda s: ToTensorLab(flag=0)(RandomCrop(56)(RescaleT(64)(s))))
    salobj_dataloader = DataLoader(salobj_dataset, batch_size=4, shuffle=True, num_workers=1)
    net = TinyUIUNet()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    bce_loss = nn.BCELoss()
    for epoch in range(2):
        for i, data in enumerate(salobj_dataloader):
            inputs, labels = data["image"].type(torch.FloatTensor), data["label"].type(torch.FloatTensor)
            optimizer.zero_grad()
            loss = bce_loss(net(inputs), labels)
            loss.backward()
            optimizer.step()
        print(f"[epoch: {epoch + 1}] train loss: {loss.item():.6f}")
