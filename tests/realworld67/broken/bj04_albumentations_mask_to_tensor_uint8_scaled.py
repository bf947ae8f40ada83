"""Binary segmentation of bright particles in micrographs with albumentations' (2018) torch ToTensor re-typed: the image and its mask are both NumPy uint8 arrays (the mask holds class values 0 and 1), and mask_to_tensor divides any uint8 array by 255 just like img_to_tensor, so the BCEWithLogitsLoss targets become 0 and 0.0039 and the network learns to predict background everywhere, silently
source: https://github.com/albumentations-team/albumentations/issues/148
reported-error: (no exception) "I spent an hour until I realized you are dividing the mask by 255 if it's uint8. I don't see why... I suggest to leave the mask unmodified"; maintainer: "We will add some comments not to use ToTensor transforms"
outcome: ok (silent: mask_to_tensor divides the uint8 0/1 mask by 255 at line 40, so every BCE target batch holds only 0.0 and 0.0039; after 8 epochs the network predicts a foreground fraction of 0.0000 on the validation images (true 0.0675), val dice 0.000, where bj_c04 with the mask left unscaled reaches dice 0.955)
root-cause: line 40
expect: DG007
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)


def img_to_tensor(im, normalize=None):
    tensor = torch.from_numpy(np.moveaxis(im / (255.0 if im.dtype == np.uint8 else 1), -1, 0).astype(np.float32))
    if normalize is not None:
        mean = torch.tensor(normalize["mean"]).view(-1, 1, 1)
        std = torch.tensor(normalize["std"]).view(-1, 1, 1)
        return (tensor - mean) / std
    return tensor


def mask_to_tensor(mask, num_classes, sigmoid):
    if num_classes > 1:
        if not sigmoid:
            long_mask = np.zeros((mask.shape[:2]), dtype=np.int64)
            if len(mask.shape) == 3:
                for c in range(mask.shape[2]):
                    long_mask[mask[..., c] > 0] = c
            else:
                long_mask[mask > 127] = 1
                long_mask[mask == 0] = 0
            mask = long_mask
        else:
            mask = np.moveaxis(mask / (255.0 if mask.dtype == np.uint8 else 1), -1, 0).astype(np.float32)
    else:
        mask = np.expand_dims(mask / (255.0 if mask.dtype == np.uint8 else 1), 0).astype(np.float32)  # root-cause
    return torch.from_numpy(mask)


class ToTensor:
    """albumentations.torch.ToTensor (the 2018 version): image and mask through the same call."""

    def __init__(self, num_classes=1, sigmoid=True, normalize=None):
        self.num_classes, self.sigmoid, self.normalize = num_classes, sigmoid, normalize

    def __call__(self, force_apply=True, **kwargs):
        kwargs.update({"image": img_to_tensor(kwargs["image"], self.normalize)})
        if "mask" in kwargs:
            kwargs.update({"mask": mask_to_tensor(kwargs["mask"], self.num_classes, sigmoid=self.sigmoid)})
        return kwargs


def make_sample(size=48):
    img = rng.normal(40, 12, (size, size, 3))
    mask = np.zeros((size, size), dtype=np.uint8)
    yy, xx = np.mgrid[:size, :size]
    for _ in range(rng.integers(2, 5)):
        cy, cx, r = rng.integers(6, size - 6), rng.integers(6, size - 6), rng.integers(3, 7)
        blob = (yy - cy) ** 2 + (xx - cx) ** 2 <= r * r
        mask[blob] = 1  # root-cause-alt
        img[blob] += rng.normal(110, 15)
    return np.clip(img, 0, 255).astype(np.uint8), mask


class ParticleDataset(Dataset):
    def __init__(self, n, transform):
        self.samples = [make_sample() for _ in range(n)]
        self.transform = transform

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, idx):
        image, mask = self.samples[idx]
        data = self.transform(image=image, mask=mask)
        return data["image"], data["mask"]


norm = {"mean": [0.485, 0.456, 0.406], "std": [0.229, 0.224, 0.225]}
train_ds = ParticleDataset(48, ToTensor(num_classes=1, sigmoid=True, normalize=norm))
val_ds = ParticleDataset(12, ToTensor(num_classes=1, sigmoid=True, normalize=norm))
train_dl = DataLoader(train_ds, batch_size=8, shuffle=True)

model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
    nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
    nn.Conv2d(16, 1, 1),
)
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(8):
    for image, mask in train_dl:
        loss = criterion(model(image), mask)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}, mask target values {sorted(set(mask.unique().tolist()))}")

model.eval()
with torch.no_grad():
    images = torch.stack([val_ds[i][0] for i in range(len(val_ds))])
    true = torch.stack([torch.from_numpy(m.astype(np.float32))[None] for _, m in val_ds.samples])
    pred = (torch.sigmoid(model(images)) > 0.5).float()
    dice = (2 * (pred * true).sum() / (pred.sum() + true.sum() + 1e-8)).item()
print(f"val predicted foreground fraction {pred.mean().item():.4f} (true {true.mean().item():.4f})")
print(f"val dice {dice:.3f}")
