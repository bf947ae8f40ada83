"""A GaNDLF-style 2D histology segmentation run (re-typed: torchio-like Subject/ScalarImage, the "noise_var" augmentation RandomNoiseEnhanced with its default std range taken from 1.5% of the image's own standard deviation, a small U-Net): PNG patches are read as uint8 tensors and RandomNoiseEnhanced.calculate_std_ranges calls torch.std on the uint8 image data, which PyTorch refuses
source: https://github.com/mlcommons/GaNDLF/issues/859
reported-error: "The variable blur and noise augmentations fail for certain images that do not have a float pixel type. To Reproduce: Use png data for training. Use either of one of these 2 augmentations. See error. ... A simple fix is to add image.data.float() before calling torch.std for both."
outcome: RuntimeError: std and var only support floating point and complex dtypes at line 60
root-cause: line 60
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)


class ScalarImage:
    """torchio.ScalarImage stand-in: a (C, W, H, D) tensor with the dtype the file was stored in."""

    def __init__(self, tensor):
        self.data = tensor

    def set_data(self, tensor):
        self.data = tensor


class Subject(dict):
    def get_images_dict(self):
        return {k: v for k, v in self.items() if isinstance(v, ScalarImage)}


def read_png(rng, size=32):
    arr = rng.integers(0, 256, size=(size, size, 3), dtype=np.uint8)  # what PIL/SimpleITK gives for an RGB png
    return torch.from_numpy(arr).permute(2, 0, 1).unsqueeze(-1)  # root-cause-alt


class Noise:
    def __init__(self, mean, std, seed):
        self.mean, self.std, self.seed = mean, std, seed

    def __call__(self, subject):
        for name, image in subject.get_images_dict().items():
            if name == "label":
                continue
            g = torch.Generator().manual_seed(self.seed[name])
            noise = torch.randn(image.data.shape, generator=g) * self.std[name] + self.mean[name]
            image.set_data(image.data + noise)
        return subject


class RandomNoiseEnhanced:
    def __init__(self, mean=0, std=None):
        self.mean_range = (-mean, mean) if np.isscalar(mean) else mean
        self.std_original = std
        self.std_ranges = std

    def calculate_std_ranges(self, image):
        std_ranges = self.std_ranges
        if self.std_original is None:
            # default std range: 1.5% of the input image std (GaNDLF issue #518)
            std_ranges = (0, 0.015 * torch.std(image.data).item())  # root-cause  # fails-here
        return std_ranges

    def __call__(self, subject):
        arguments = {"mean": {}, "std": {}, "seed": {}}
        for name, image in subject.get_images_dict().items():
            if name == "label":
                continue
            std_range = self.calculate_std_ranges(image)
            arguments["mean"][name] = float(torch.empty(1).uniform_(*self.mean_range)) if self.mean_range[1] > self.mean_range[0] else 0.0
            arguments["std"][name] = float(torch.empty(1).uniform_(*std_range))
            arguments["seed"][name] = int(torch.randint(0, 2**31, (1,)))
        return Noise(**arguments)(subject)


class HistologyPatches(Dataset):
    def __init__(self, n, transform):
        rng = np.random.default_rng(0)
        self.subjects = []
        for _ in range(n):
            img = read_png(rng)
            mask = (img[0:1].float() > 127).long()
            self.subjects.append((img, mask))
        self.transform = transform

    def __len__(self):
        return len(self.subjects)

    def __getitem__(self, i):
        img, mask = self.subjects[i]
        subject = Subject(image=ScalarImage(img.clone()), label=ScalarImage(mask.clone()))
        subject = self.transform(subject)
        return subject["image"].data.squeeze(-1).float() / 255.0, subject["label"].data.squeeze(-1).squeeze(0)


class TinyUNet(nn.Module):
    def __init__(self, in_ch=3, n_classes=2):
        super().__init__()
        self.enc = nn.Conv2d(in_ch, 8, 3, padding=1)
        self.bott = nn.Conv2d(8, 8, 3, padding=1)
        self.dec = nn.Conv2d(16, n_classes, 1)

    def forward(self, x):
        e = torch.relu(self.enc(x))
        b = torch.relu(self.bott(nn.functional.max_pool2d(e, 2)))
        b = nn.functional.interpolate(b, scale_factor=2, mode="nearest")
        return self.dec(torch.cat([e, b], 1))


params = {"data_augmentation": {"noise_var": {"mean": 0.0, "std": None}}}
aug = RandomNoiseEnhanced(**params["data_augmentation"]["noise_var"])
loader = DataLoader(HistologyPatches(8, aug), batch_size=4, shuffle=True)
model = TinyUNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(2):
    for image, label in loader:
        optimizer.zero_grad()
        loss = loss_fn(model(image), label)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
