"""A Raster Vision-style semantic segmentation learner (re-typed: SemanticSegmentationImageDataset reading uint8 image and label chips, semantic_segmentation_transformer after PR #1056, an albumentations-style Resize for chip_sz != img_sz, ImageDataset.__getitem__'s normalisation, SemanticSegmentationLearner.train_step): the label chip is cast to np.long before the transform, the resize hands masks back as int32 as cv2 does, torch.from_numpy keeps int32 and F.cross_entropy refuses the int32 class map
source: https://github.com/azavea/raster-vision/pull/1062
reported-error: "Passing the mask to an albumentations transform as an np.long array turns it into an np.int32, which is incompatible with PyTorch's loss functions" (bug introduced by #1056; not caught by the integration test because chip_sz == img_sz made Resize a no-op)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 159
root-cause: line 90
expect: DG006
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)

CLASS_NAMES = ["background", "building", "road"]


def write_chips(root, n=8, chip_sz=40):
    """The chips the learner reads: RGB uint8 images and uint8 label rasters (class ids)."""
    os.makedirs(os.path.join(root, "img"))
    os.makedirs(os.path.join(root, "labels"))
    for i in range(n):
        img = rng.integers(0, 256, size=(chip_sz, chip_sz, 3), dtype=np.uint8)
        lbl = np.zeros((chip_sz, chip_sz), dtype=np.uint8)
        lbl[:, chip_sz // 2 - 3: chip_sz // 2 + 3] = 2            # a road
        r, c = rng.integers(0, chip_sz - 10, size=2)
        lbl[r:r + 10, c:c + 10] = 1                                # a building
        np.save(os.path.join(root, "img", f"{i}.npy"), img)
        np.save(os.path.join(root, "labels", f"{i}.npy"), lbl)


def _cv2_resize_nearest(arr, height, width):
    """cv2.resize(..., interpolation=INTER_NEAREST) as albumentations calls it: OpenCV has no
    64-bit integer matrices, so an int64 mask comes back as int32."""
    h, w = arr.shape[:2]
    rows = np.arange(height) * h // height
    cols = np.arange(width) * w // width
    out = arr[rows][:, cols]
    if out.dtype == np.int64:
        out = out.astype(np.int32)
    return out


class Resize:
    """albumentations.Resize stand-in: image bilinear-ish (nearest here), mask nearest."""

    def __init__(self, height, width):
        self.height, self.width = height, width

    def __call__(self, image, mask=None):
        out = {"image": _cv2_resize_nearest(image, self.height, self.width)}
        if mask is not None:
            out["mask"] = _cv2_resize_nearest(mask, self.height, self.width)
        return out


class HorizontalFlip:
    def __init__(self, p=0.5):
        self.p = p

    def __call__(self, image, mask=None):
        if rng.random() < self.p:
            image = image[:, ::-1].copy()
            mask = mask[:, ::-1].copy() if mask is not None else None
        out = {"image": image}
        if mask is not None:
            out["mask"] = mask
        return out


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, image, mask=None):
        out = {"image": image, "mask": mask}
        for t in self.transforms:
            out.update(t(image=out["image"], mask=out["mask"]))
        return out


def semantic_segmentation_transformer(inp, transform=None):
    """Apply transform to image and mask (the version after PR #1056)."""
    x, y = inp
    x, y = np.array(x), np.array(y, dtype=np.long)  # root-cause
    if transform is not None:
        out = transform(image=x, mask=y)
        x, y = out["image"], out["mask"]
    return x, y


class SemanticSegmentationImageDataset(Dataset):
    def __init__(self, data_dir):
        self.img_dir = os.path.join(data_dir, "img")
        self.label_dir = os.path.join(data_dir, "labels")
        self.ids = sorted(os.listdir(self.img_dir))

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, ind):
        img = np.load(os.path.join(self.img_dir, self.ids[ind]))
        label = np.load(os.path.join(self.label_dir, self.ids[ind]))
        return img, label


class ImageDataset(Dataset):
    """Learner-side wrapper: transform, normalise uint8 to [0, 1], to tensors."""

    def __init__(self, orig_dataset, transform=None):
        self.orig_dataset = orig_dataset
        self.transform = transform

    def __len__(self):
        return len(self.orig_dataset)

    def __getitem__(self, ind):
        x, y = semantic_segmentation_transformer(self.orig_dataset[ind], self.transform)
        if np.issubdtype(x.dtype, np.unsignedinteger):
            max_val = np.iinfo(x.dtype).max
            x = x.astype(float) / max_val
        x = torch.from_numpy(x).permute(2, 0, 1).float()
        y = torch.from_numpy(y)
        return x, y


class SegHead(nn.Module):
    """A small fully-convolutional model (stand-in for the learner's DeepLab/FPN)."""

    def __init__(self, num_classes):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        )
        self.cls = nn.Conv2d(16, num_classes, 1)

    def forward(self, x):
        return self.cls(self.body(x))


class SemanticSegmentationLearner:
    def __init__(self, model, train_dl, lr=1e-3):
        self.model = model
        self.train_dl = train_dl
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def post_forward(self, x):
        return x

    def train_step(self, batch, batch_ind):
        x, y = batch
        out = self.post_forward(self.model(x))
        return {"train_loss": F.cross_entropy(out, y)}  # fails-here

    def train_epoch(self):
        self.model.train()
        total = 0.0
        for batch_ind, batch in enumerate(self.train_dl):
            loss = self.train_step(batch, batch_ind)["train_loss"]
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            total += loss.item()
        return total / len(self.train_dl)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as root:
        write_chips(root, chip_sz=40)
        img_sz = 32  # chip_sz != img_sz, so Resize really runs
        aug = Compose([Resize(img_sz, img_sz), HorizontalFlip()])
        train_ds = ImageDataset(SemanticSegmentationImageDataset(root), transform=aug)
        train_dl = DataLoader(train_ds, batch_size=4, shuffle=True)
        learner = SemanticSegmentationLearner(SegHead(len(CLASS_NAMES)), train_dl)
        for epoch in range(2):
            print(f"epoch {epoch}: train_loss {learner.train_epoch():.4f}")
