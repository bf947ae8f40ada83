"""Glomeruli segmentation on HuBMAP kidney tiles (Kaggle "HuBMAP - Hacking the Kidney" style): HuBMAPDataset reads each image tile with io.imread and its binary mask from a uint8 .npy file, and runs both through the same ToTensor transform; ToTensor scales uint8 arrays by 1/255, so the mask's 1s become 0.0039 and the BCE-trained network learns to predict (almost) no glomerulus at all
source: https://github.com/pytorch/pytorch/issues/53959
reported-error: (no exception) "Loading uint8 numpy arrays that contain labels causes the dataset object to change them into an unknown decimal number. Adding .astype('int32') to the end of np.load fixes the issue ... it completely messes up the training as the optimizer will train the model to return 0"; answer (vfdev-5): "you should not apply ToTensor on mask: mask = self.tfm(mask) as it also scales the data"
outcome: ok (silent: ToTensor divides the uint8 mask by 255 at line 48, so the BCE targets are 0 and 0.0039 instead of 0 and 1; after 6 epochs the network predicts a glomerulus fraction of 0.0000 on the validation tiles (true 0.0685), dice 0.000, where au_c05 reaches dice 0.944)
root-cause: line 77
expect: DG007
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(5)
root = tempfile.mkdtemp()
image_path, mask_path = os.path.join(root, "train_image_tiles/"), os.path.join(root, "train_mask_tiles/")
os.makedirs(image_path), os.makedirs(mask_path)

# ---- tiles cut from the whole-slide images: RGB uint8 tiles and uint8 glomerulus masks ----
yy, xx = np.mgrid[:64, :64]
for k in range(64):
    img = np.stack([rng.normal(200, 12, (64, 64)), rng.normal(150, 15, (64, 64)), rng.normal(195, 10, (64, 64))], -1)
    mask = np.zeros((64, 64), dtype=np.uint8)
    for _ in range(rng.integers(0, 3)):
        cy, cx, r = rng.integers(10, 54), rng.integers(10, 54), rng.integers(6, 11)
        blob = (yy - cy) ** 2 + (xx - cx) ** 2 < r ** 2
        img[blob] = img[blob] * [0.75, 0.55, 0.8]
        mask[blob] = 1
    with open(os.path.join(image_path, f"tile_{k:03d}.tiff"), "wb") as fh:
        np.save(fh, np.clip(img, 0, 255).astype(np.uint8))
    np.save(os.path.join(mask_path, f"tile_{k:03d}.npy"), mask)


def io_imread(path):  # skimage.io.imread stand-in
    with open(path, "rb") as fh:
        return np.load(fh)


class ToTensor:  # torchvision.transforms.ToTensor on an ndarray
    def __call__(self, pic):
        if pic.ndim == 2:
            pic = pic[:, :, None]
        img = torch.from_numpy(pic.transpose((2, 0, 1))).contiguous()
        if img.dtype == torch.uint8:
            return img.to(dtype=torch.get_default_dtype()).div(255)  # fails-here
        return img


class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = torch.tensor(mean).view(-1, 1, 1), torch.tensor(std).view(-1, 1, 1)

    def __call__(self, t):
        return (t - self.mean) / self.std


class HuBMAPDataset(Dataset):
    def __init__(self, image_path=image_path, mask_path=mask_path, tfm=None, mean=None, std=None):
        super().__init__()
        self.image_path, self.mask_path = image_path, mask_path
        self.nrm = Normalize(mean=mean, std=std)
        self.tfm = tfm
        self.image_list = sorted(os.listdir(self.image_path))
        assert len(self.image_list) == len(os.listdir(self.mask_path))
        self.mask_list = [x[:-5] + ".npy" for x in self.image_list]

    def __len__(self):
        return len(self.image_list)

    def __getitem__(self, idx):
        image = io_imread(self.image_path + self.image_list[idx])
        mask = np.load(self.mask_path + self.mask_list[idx])  # root-cause-alt
        image = self.nrm(self.tfm(image))
        mask = self.tfm(mask)  # root-cause
        return image, mask


ds = HuBMAPDataset(tfm=ToTensor(), mean=[0.65459856, 0.48386562, 0.69428385], std=[0.15167958, 0.23584107, 0.13146145])
train_ds, val_ds = torch.utils.data.Subset(ds, range(48)), torch.utils.data.Subset(ds, range(48, 64))
print(f"mask values after the transform: max {max(float(m.max()) for _, m in ds):.4f}")


def block(i, o):
    return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU())


model = nn.Sequential(block(3, 16), block(16, 32), nn.MaxPool2d(2), block(32, 32), nn.Upsample(scale_factor=2),
                      block(32, 16), nn.Conv2d(16, 1, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
criterion = nn.BCEWithLogitsLoss()
for epoch in range(6):
    model.train()
    for image, mask in DataLoader(train_ds, batch_size=8, shuffle=True):
        loss = criterion(model(image), mask)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")

model.eval()
inter = union = pred_pos = true_pos = 0.0
with torch.no_grad():
    for image, mask in DataLoader(val_ds, batch_size=16):
        pred = (torch.sigmoid(model(image)) > 0.5).float()
        truth = (mask > 0).float()
        inter += (pred * truth).sum().item()
        union += (pred.sum() + truth.sum()).item()
        pred_pos += pred.mean().item()
        true_pos += truth.mean().item()
print(f"validation: predicted glomerulus fraction {pred_pos:.4f}, true fraction {true_pos:.4f}, "
      f"dice {2 * inter / max(union, 1):.3f}")
