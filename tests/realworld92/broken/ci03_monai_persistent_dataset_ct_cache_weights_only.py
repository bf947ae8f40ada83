"""MONAI spleen-CT segmentation with a PersistentDataset cache (Project-MONAI/MONAI at 82298ad~1, re-typed: PersistentDataset._cachecheck writing the deterministic transforms' output with torch.save and reading it back with torch.load on a cache hit; LoadImaged (a NiBabel stand-in giving the int16 CT as float32 plus an image_meta_dict of NumPy affines and shapes), EnsureChannelFirstd, ScaleIntensityRanged, CropForegroundd, RandCropByPosNegLabeld, a small 3D UNet, DiceCE loss): the first epoch fills the cache, the second epoch's cache hits go through the weights-only torch.load, which refuses the NumPy arrays of the cached dictionaries
source: https://github.com/Project-MONAI/MONAI/pull/8177
reported-error: (the PR thread: torch.load's FutureWarning about weights_only=False in PersistentDataset and GDSDataset, "the default value for weights_only will be flipped to True"; PR #8177 passes weights_only=False; under torch >= 2.6 the flipped default refuses the cached items)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 154
root-cause: line 154
expect: DG011
"""
import atexit
import hashlib
import json
import shutil
import tempfile
from copy import deepcopy
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
root_dir = tempfile.mkdtemp(prefix="spleen_")
atexit.register(shutil.rmtree, root_dir, True)


# ---- NiBabel stand-in: Task09_Spleen-like int16 CT volumes and uint8 spleen masks ---------------------------------
def nib_load(path):
    seed = int(hashlib.md5(path.encode()).hexdigest()[:8], 16)
    r = np.random.default_rng(seed)
    shape = (40, 40, 24)
    hu = r.normal(-800, 50, shape)
    hu[6:34, 6:34, 3:21] = r.normal(40, 30, (28, 28, 18))  # abdomen
    seg = np.zeros(shape, np.uint8)
    cx, cy = r.integers(14, 26, 2)
    seg[cx - 5:cx + 5, cy - 5:cy + 5, 8:16] = 1
    hu[seg == 1] = r.normal(110, 15, int(seg.sum()))
    affine = np.diag([0.8, 0.8, 2.5, 1.0])
    return (hu.astype(np.int16) if "imagesTr" in path else seg), affine


# ---- monai.transforms (dictionary versions) -----------------------------------------------------------------------
class LoadImaged:
    def __init__(self, keys):
        self.keys = keys

    def __call__(self, data):
        d = dict(data)
        for key in self.keys:
            array, affine = nib_load(d[key])
            d[key] = array.astype(np.float32)
            d[f"{key}_meta_dict"] = {"affine": affine, "original_affine": affine.copy(),
                                     "spatial_shape": np.asarray(array.shape), "filename_or_obj": data[key]}
        return d


class EnsureChannelFirstd:
    def __init__(self, keys):
        self.keys = keys

    def __call__(self, data):
        d = dict(data)
        for key in self.keys:
            d[key] = d[key][None]
        return d


class ScaleIntensityRanged:
    def __init__(self, keys, a_min, a_max, b_min, b_max, clip):
        self.keys, self.a_min, self.a_max, self.b_min, self.b_max, self.clip = keys, a_min, a_max, b_min, b_max, clip

    def __call__(self, data):
        d = dict(data)
        for key in self.keys:
            img = (d[key] - self.a_min) / (self.a_max - self.a_min)
            img = img * (self.b_max - self.b_min) + self.b_min
            d[key] = np.clip(img, self.b_min, self.b_max) if self.clip else img
        return d


class CropForegroundd:
    def __init__(self, keys, source_key):
        self.keys, self.source_key = keys, source_key

    def __call__(self, data):
        d = dict(data)
        fg = np.argwhere(d[self.source_key][0] > 0)
        lo, hi = fg.min(0), fg.max(0) + 1
        for key in self.keys:
            d[key] = d[key][:, lo[0]:hi[0], lo[1]:hi[1], lo[2]:hi[2]]
        return d


class RandCropByPosNegLabeld:
    def __init__(self, keys, label_key, spatial_size):
        self.keys, self.label_key, self.spatial_size = keys, label_key, spatial_size

    def __call__(self, data):
        d = dict(data)
        lab = d[self.label_key][0]
        pos = rng.random() < 0.5 and lab.any()
        cands = np.argwhere(lab > 0) if pos else np.argwhere(lab >= 0)
        c = cands[rng.integers(len(cands))]
        start = [int(np.clip(c[i] - s // 2, 0, lab.shape[i] - s)) for i, s in enumerate(self.spatial_size)]
        for key in self.keys:
            d[key] = d[key][:, start[0]:start[0] + self.spatial_size[0], start[1]:start[1] + self.spatial_size[1],
                            start[2]:start[2] + self.spatial_size[2]].copy()
        return d


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, data):
        for t in self.transforms:
            data = t(data)
        return data


# ---- monai.data.PersistentDataset ---------------------------------------------------------------------------------
def pickle_hashing(item):
    return hashlib.md5(json.dumps(item, sort_keys=True).encode("utf-8")).hexdigest().encode("utf-8")


class PersistentDataset(torch.utils.data.Dataset):
    def __init__(self, data, transform, cache_dir):
        self.data, self.transform = data, transform
        self.cache_dir = Path(cache_dir)
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        self.hash_func = pickle_hashing
        self.transform_hash = ""
        first_random = next(i for i, t in enumerate(transform.transforms) if isinstance(t, RandCropByPosNegLabeld))
        self.pre_transform = Compose(transform.transforms[:first_random])
        self.post_transform = Compose(transform.transforms[first_random:])

    def __len__(self):
        return len(self.data)

    def _pre_transform(self, item_transformed):
        return self.pre_transform(item_transformed)

    def _post_transform(self, item_transformed):
        return self.post_transform(item_transformed)

    def _cachecheck(self, item_transformed):
        hashfile = None
        if self.cache_dir is not None:
            data_item_md5 = self.hash_func(item_transformed).decode("utf-8")
            data_item_md5 += self.transform_hash
            hashfile = self.cache_dir / f"{data_item_md5}.pt"
        if hashfile is not None and hashfile.is_file():  # cache hit
            return torch.load(hashfile)  # root-cause  # fails-here
        _item_transformed = self._pre_transform(deepcopy(item_transformed))  # keep the original hashed
        if hashfile is None:
            return _item_transformed
        with tempfile.TemporaryDirectory() as tmpdirname:
            temp_hash_file = Path(tmpdirname) / hashfile.name
            torch.save(obj=_item_transformed, f=temp_hash_file)  # root-cause-alt
            if temp_hash_file.is_file() and not hashfile.is_file():
                shutil.move(str(temp_hash_file), hashfile)
        return _item_transformed

    def __getitem__(self, index):
        pre_random_item = self._cachecheck(self.data[index])
        item = self._post_transform(pre_random_item)
        return {k: torch.as_tensor(item[k]) for k in ("image", "label")}


# ---- the 3D UNet and DiceCE loss ----------------------------------------------------------------------------------
class UNet3D(nn.Module):
    def __init__(self, ch=(8, 16)):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv3d(1, ch[0], 3, padding=1), nn.InstanceNorm3d(ch[0]), nn.PReLU())
        self.enc2 = nn.Sequential(nn.Conv3d(ch[0], ch[1], 3, stride=2, padding=1), nn.InstanceNorm3d(ch[1]), nn.PReLU())
        self.up = nn.ConvTranspose3d(ch[1], ch[0], 2, stride=2)
        self.out = nn.Conv3d(2 * ch[0], 2, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        return self.out(torch.cat([self.up(self.enc2(e1)), e1], 1))


def dice_ce_loss(logits, label):
    target = label[:, 0].long()
    ce = F.cross_entropy(logits, target)
    probs = torch.softmax(logits, 1)
    onehot = F.one_hot(target, 2).permute(0, 4, 1, 2, 3).float()
    inter = (probs * onehot).sum((2, 3, 4))
    dice = 1 - (2 * inter + 1e-5) / (probs.sum((2, 3, 4)) + onehot.sum((2, 3, 4)) + 1e-5)
    return ce + dice.mean()


train_files = [{"image": f"{root_dir}/imagesTr/spleen_{i}.nii.gz", "label": f"{root_dir}/labelsTr/spleen_{i}.nii.gz"}
               for i in range(4)]
train_transforms = Compose([
    LoadImaged(keys=["image", "label"]),
    EnsureChannelFirstd(keys=["image", "label"]),
    ScaleIntensityRanged(keys=["image"], a_min=-57, a_max=164, b_min=0.0, b_max=1.0, clip=True),
    CropForegroundd(keys=["image", "label"], source_key="image"),
    RandCropByPosNegLabeld(keys=["image", "label"], label_key="label", spatial_size=(16, 16, 16)),
])
train_ds = PersistentDataset(data=train_files, transform=train_transforms, cache_dir=f"{root_dir}/persistent_cache")
train_loader = torch.utils.data.DataLoader(train_ds, batch_size=2, shuffle=True)

model = UNet3D().to(device)
optimizer = torch.optim.Adam(model.parameters(), 1e-3)
for epoch in range(3):
    model.train()
    epoch_loss = 0.0
    for batch_data in train_loader:
        inputs, labels = batch_data["image"].to(device), batch_data["label"].to(device)
        optimizer.zero_grad()
        loss = dice_ce_loss(model(inputs), labels)
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()
    print(f"epoch {epoch + 1} average loss: {epoch_loss / len(train_loader):.4f}")
