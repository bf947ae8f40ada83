"""Lung-tumour segmentation on Task06_Lung style CT volumes (fshnkarimi/LungTumor-Segmentation #1 as in au01) with the fix from the thread: LungDataset.__getitem__ casts the loaded slice with .astype(np.float32), so default_collate stacks float32 slices for the float32 UNet; the preprocessed .npy slices and masks stay float64 on disk, the float64 mask batch is still cast with mask.float() in the training step, and the inference loop's torch.tensor(slice).float() is kept
source: https://github.com/fshnkarimi/LungTumor-Segmentation/issues/1
reported-error: (none filed; the fixed situation of au01)
outcome: ok
root-cause: -
expect: none
"""
import tempfile
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)
root = Path(tempfile.mkdtemp())


# ---- stand-ins for nibabel and cv2 (the notebook's nib.load(...).get_fdata() and cv2.resize) ----
def nib_get_fdata(n_slices=46, size=96):
    """A CT volume in Hounsfield units and its tumour label, both float64 as get_fdata() returns them."""
    yy, xx = np.mgrid[:size, :size]
    body = ((yy - size / 2) ** 2 / (0.42 * size) ** 2 + (xx - size / 2) ** 2 / (0.46 * size) ** 2) < 1
    ct = np.where(body, 40.0, -1024.0)[:, :, None] + rng.normal(0, 25, (size, size, n_slices))
    label = np.zeros((size, size, n_slices))
    cy, cx, cz = rng.integers(30, 60), rng.integers(25, 45), rng.integers(32, n_slices - 4)
    for z in range(cz - 4, cz + 4):
        blob = (yy - cy) ** 2 + (xx - cx) ** 2 < 40
        ct[:, :, z][blob] = 60.0 + rng.normal(0, 10, blob.sum())
        label[:, :, z][blob] = 1.0
    return ct, label


def cv2_resize(img, shape, nearest=False):
    ys = np.linspace(0, img.shape[0] - 1, shape[0])
    xs = np.linspace(0, img.shape[1] - 1, shape[1])
    if nearest:
        return img[np.round(ys).astype(int)][:, np.round(xs).astype(int)]
    y0, x0 = np.floor(ys).astype(int), np.floor(xs).astype(int)
    y1, x1 = np.minimum(y0 + 1, img.shape[0] - 1), np.minimum(x0 + 1, img.shape[1] - 1)
    wy, wx = (ys - y0)[:, None], (xs - x0)[None, :]
    top = img[y0][:, x0] * (1 - wx) + img[y0][:, x1] * wx
    bottom = img[y1][:, x0] * (1 - wx) + img[y1][:, x1] * wx
    return top * (1 - wy) + bottom * wy


# ---- preprocessing (notebook): crop, standardize, resize, one .npy per slice ----
save_root = root / "Task06_Lung" / "Preprocessed"
for counter in range(6):
    ct_data, label_data = nib_get_fdata()
    ct_data = ct_data[:, :, 30:] / 3071
    label_data = label_data[:, :, 30:]
    current_path = save_root / ("train" if counter < 5 else "val") / str(counter)
    for i in range(ct_data.shape[-1]):
        slice_ = cv2_resize(ct_data[:, :, i], (64, 64))
        mask = cv2_resize(label_data[:, :, i], (64, 64), nearest=True)
        (current_path / "data").mkdir(parents=True, exist_ok=True)
        (current_path / "masks").mkdir(parents=True, exist_ok=True)
        np.save(current_path / "data" / str(i), slice_)
        np.save(current_path / "masks" / str(i), mask)


# ---- dataset.py ----
class LungDataset(torch.utils.data.Dataset):
    def __init__(self, root, augment_params):
        self.all_files = self.extract_files(root)
        self.augment_params = augment_params

    @staticmethod
    def extract_files(root):
        files = []
        for subject in sorted(root.glob("*")):
            for slice_path in sorted((subject / "data").glob("*")):
                files.append(slice_path)
        return files

    @staticmethod
    def change_img_to_label_path(path):
        parts = list(path.parts)
        parts[parts.index("data")] = "masks"
        return Path(*parts)

    def augment(self, slice, mask):
        random_seed = torch.randint(0, 1000000, (1,))[0].item()
        return self.augment_params(slice, mask, np.random.default_rng(random_seed))

    def __len__(self):
        return len(self.all_files)

    def __getitem__(self, idx):
        file_path = self.all_files[idx]
        mask_path = self.change_img_to_label_path(file_path)
        slice = np.load(file_path).astype(np.float32)
        mask = np.load(mask_path)
        if self.augment_params:
            slice, mask = self.augment(slice, mask)
        return np.expand_dims(slice, 0), np.expand_dims(mask, 0)


def seq(image, mask, r):
    """Stand-in for the imgaug Affine pipeline: the same random flip/shift for slice and mask."""
    if r.random() < 0.5:
        image, mask = image[:, ::-1], mask[:, ::-1]
    shift = int(r.integers(-6, 7))
    return np.roll(image, shift, axis=0).copy(), np.roll(mask, shift, axis=0).copy()


train_dataset = LungDataset(save_root / "train", seq)
val_dataset = LungDataset(save_root / "val", None)
print(f"There are {len(train_dataset)} train images and {len(val_dataset)} val images")

target_list = [1 if np.any(label) else 0 for _, label in train_dataset]
uniques = np.unique(target_list, return_counts=True)
fraction = uniques[1][0] / uniques[1][1]
weight_list = [1 if target == 0 else fraction for target in target_list]
sampler = torch.utils.data.sampler.WeightedRandomSampler(weight_list, len(weight_list))
train_loader = torch.utils.data.DataLoader(train_dataset, batch_size=8, sampler=sampler)
val_loader = torch.utils.data.DataLoader(val_dataset, batch_size=8, shuffle=False)


# ---- model.py ----
class DoubleConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.step = nn.Sequential(nn.Conv2d(in_channels, out_channels, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(out_channels, out_channels, 3, padding=1), nn.ReLU())

    def forward(self, X):
        return self.step(X)


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = DoubleConv(1, 16)
        self.layer2 = DoubleConv(16, 32)
        self.layer3 = DoubleConv(32, 64)
        self.layer4 = DoubleConv(64 + 32, 32)
        self.layer5 = DoubleConv(32 + 16, 16)
        self.layer6 = nn.Conv2d(16, 1, 1)
        self.maxpool = nn.MaxPool2d(2)

    def forward(self, x):
        x1 = self.layer1(x)
        x2 = self.layer2(self.maxpool(x1))
        x3 = self.layer3(self.maxpool(x2))
        x4 = nn.Upsample(scale_factor=2, mode="bilinear")(x3)
        x4 = self.layer4(torch.cat([x4, x2], dim=1))
        x5 = nn.Upsample(scale_factor=2, mode="bilinear")(x4)
        x5 = self.layer5(torch.cat([x5, x1], dim=1))
        return self.layer6(x5)


class TumorSegmentation(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = UNet()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-4)
        self.loss_fn = torch.nn.BCEWithLogitsLoss()

    def forward(self, data):
        return self.model(data)

    def training_step(self, batch, batch_idx):
        ct, mask = batch
        mask = mask.float()
        pred = self(ct)
        return self.loss_fn(pred, mask)

    def validation_step(self, batch, batch_idx):
        ct, mask = batch
        mask = mask.float()
        pred = self(ct)
        return self.loss_fn(pred, mask)


model = TumorSegmentation()
for epoch in range(2):
    model.train()
    for batch_idx, batch in enumerate(train_loader):
        loss = model.training_step(batch, batch_idx)
        model.optimizer.zero_grad()
        loss.backward()
        model.optimizer.step()
    model.eval()
    with torch.no_grad():
        val_loss = np.mean([model.validation_step(b, i).item() for i, b in enumerate(val_loader)])
    print(f"epoch {epoch}: train loss {loss.item():.4f}, val loss {val_loss:.4f}")

torch.save(model.state_dict(), root / "lung_tumor_unet.pt")

# inference on the validation subject, slice by slice, as the notebook does
preds, labels = [], []
for slice, label in val_dataset:
    slice = torch.tensor(slice).float().unsqueeze(0)
    with torch.no_grad():
        pred = torch.sigmoid(model(slice))
    preds.append(pred.numpy())
    labels.append(label)
preds, labels = torch.from_numpy(np.array(preds)), torch.from_numpy(np.array(labels)).unsqueeze(1).float()
dice = (2 * (preds * labels).sum()) / (preds.sum() + labels.sum())
print(f"val dice {dice.item():.4f}")
