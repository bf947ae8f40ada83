"""The TorchIO + MONAI UNet loader of ci05 with the cast the reporter asked about done where the batch enters the model (inputs = batch["image"][tio.DATA].float()): TorchIO keeps the int16 pixel type through ToCanonical and EnsureShapeMultiple, so the float32 cast happens once on the batch, and the UNet trains with the Dice loss on the int16-read T1 volumes
source: https://github.com/TorchIO-project/torchio/issues/822
reported-error: (none; the fixed situation of problem 1 of ci05, "Do I need to cast float manually?": the batch is cast to float32 before the model)
outcome: ok
root-cause: -
expect: none
"""
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)
DATA, AFFINE = "data", "affine"


# ---- SimpleITK stand-in: T1 volumes stored as int16, lesion masks as uint8 -----------------------------------------
def sitk_read(path):
    shape = (30, 34, 28)
    zz, yy, xx = np.meshgrid(*[np.linspace(-1, 1, s) for s in shape], indexing="ij")
    brain = (zz ** 2 + yy ** 2 + xx ** 2) < 0.6
    if "label" in path:
        return (((zz - 0.2) ** 2 + yy ** 2 + (xx + 0.1) ** 2) < 0.05).astype(np.uint8)
    return (np.where(brain, 600, 40) + rng.normal(0, 30, shape)).astype(np.int16)


# ---- torchio/data/io.py ---------------------------------------------------------------------------------------------
def check_uint_to_int(array):
    # This is because PyTorch won't take uint16 nor uint32
    if array.dtype == np.uint16:
        return array.astype(np.int32)
    if array.dtype == np.uint32:
        return array.astype(np.int64)
    return array


def _read_sitk(path):
    data = sitk_read(str(path))[np.newaxis]  # sitk_to_nib(image, keepdim=True): channels first
    affine = np.diag([-1.0, -1.0, 1.0, 1.0])  # LPS
    data = check_uint_to_int(data)
    tensor = torch.as_tensor(data)
    return tensor, affine


def read_image(path):
    return _read_sitk(path)


# ---- torchio/data: images, subject, dataset -------------------------------------------------------------------------
class Image(dict):
    def __init__(self, path):
        super().__init__()
        tensor, affine = read_image(path)
        self[DATA], self[AFFINE], self.path = tensor, affine, path

    @property
    def data(self):
        return self[DATA]

    @property
    def spatial_shape(self):
        return tuple(self[DATA].shape[1:])


class ScalarImage(Image):
    pass


class LabelMap(Image):
    pass


class Subject(dict):
    def get_images(self):
        return [v for v in self.values() if isinstance(v, Image)]

    def check_consistent_attribute(self, attribute, relative_tolerance=1e-6):
        values = [np.asarray(getattr(image, attribute)) for image in self.get_images()]
        if not all(np.allclose(values[0], v, rtol=relative_tolerance) for v in values[1:]):
            raise RuntimeError(f"More than one value for {attribute} found in subject images")

    @property
    def spatial_shape(self):
        self.check_consistent_attribute("spatial_shape")
        return self.get_images()[0].spatial_shape


# this is stolen from issue 647:
class MySubject(Subject):
    def check_consistent_attribute(self, *args, **kwargs) -> None:
        kwargs["relative_tolerance"] = 1e-5
        return super().check_consistent_attribute(*args, **kwargs)


class ToCanonical:
    def __call__(self, subject):
        for image in subject.get_images():
            if image[AFFINE][0, 0] < 0:
                image[DATA] = torch.flip(image[DATA], dims=(1, 2))
                image[AFFINE] = np.abs(image[AFFINE])
        return subject


class CropOrPad:
    def __init__(self, target_shape):
        self.target_shape = tuple(int(s) for s in target_shape)

    def __call__(self, subject):
        for image in subject.get_images():
            data = image[DATA]
            for axis, target in enumerate(self.target_shape, start=1):
                size = data.shape[axis]
                if size > target:
                    start = (size - target) // 2
                    data = data.narrow(axis, start, target)
                elif size < target:
                    pad = [0, 0] * 3
                    before = (target - size) // 2
                    pad[2 * (3 - axis)] = before
                    pad[2 * (3 - axis) + 1] = target - size - before
                    data = F.pad(data, pad)
            image[DATA] = data
        return subject


class EnsureShapeMultiple:
    def __init__(self, target_multiple, method="pad"):
        self.target_multiple, self.method = target_multiple, method

    def __call__(self, subject):
        source_shape = np.array(subject.spatial_shape, np.uint16)
        function = np.floor if self.method == "crop" else np.ceil
        integer_ratio = function(source_shape / self.target_multiple)
        target_shape = integer_ratio * self.target_multiple
        target_shape = np.maximum(target_shape, 1)
        return CropOrPad(target_shape.astype(int))(subject)


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, subject):
        subject = copy.deepcopy(subject)
        for t in self.transforms:
            subject = t(subject)
        return subject


class SubjectsDataset(Dataset):
    def __init__(self, subjects, transform=None):
        self._subjects, self._transform = subjects, transform

    def __len__(self):
        return len(self._subjects)

    def __getitem__(self, index):
        subject = copy.deepcopy(self._subjects[index])
        if self._transform is not None:
            subject = self._transform(subject)
        return {k: {DATA: v[DATA]} for k, v in subject.items()}


# ---- monai.networks.nets.UNet and monai.losses.DiceLoss (small stand-ins) ------------------------------------------
class UNet(nn.Module):
    def __init__(self, spatial_dims=3, in_channels=1, out_channels=2, channels=(8, 16, 32), strides=(2, 2)):
        super().__init__()
        self.down1 = nn.Sequential(nn.Conv3d(in_channels, channels[0], 3, stride=strides[0], padding=1), nn.PReLU())
        self.down2 = nn.Sequential(nn.Conv3d(channels[0], channels[1], 3, stride=strides[1], padding=1), nn.PReLU())
        self.bottom = nn.Sequential(nn.Conv3d(channels[1], channels[2], 3, padding=1), nn.PReLU())
        self.up2 = nn.Sequential(nn.ConvTranspose3d(channels[2] + channels[1], channels[0], 2, stride=2), nn.PReLU())
        self.up1 = nn.ConvTranspose3d(2 * channels[0], out_channels, 2, stride=2)

    def forward(self, x):
        d1 = self.down1(x)
        d2 = self.down2(d1)
        u2 = self.up2(torch.cat([self.bottom(d2), d2], 1))
        return self.up1(torch.cat([u2, d1], 1))


def dice_loss(logits, target, smooth=1e-5):
    probs = torch.softmax(logits, 1)
    onehot = F.one_hot(target[:, 0].long(), probs.shape[1]).permute(0, 4, 1, 2, 3).float()
    inter = (probs * onehot).sum((2, 3, 4))
    return (1 - (2 * inter + smooth) / (probs.sum((2, 3, 4)) + onehot.sum((2, 3, 4)) + smooth)).mean()


# ---- the reporter's script ------------------------------------------------------------------------------------------
# problem 1
trafo = Compose([ToCanonical(), EnsureShapeMultiple(16)])

subjects = [MySubject(image=ScalarImage(f"sub-{i:02d}_T1w.nii.gz"), label=LabelMap(f"sub-{i:02d}_label.nii.gz"))
            for i in range(4)]
dataset = SubjectsDataset(subjects, transform=trafo)
loader = DataLoader(dataset, batch_size=2, shuffle=True)

model = UNet(spatial_dims=3, in_channels=1, out_channels=2, channels=(8, 16, 32), strides=(2, 2))
optimizer = torch.optim.Adam(model.parameters(), 1e-3)
for epoch in range(2):
    for batch in loader:
        inputs = batch["image"][DATA].float()
        targets = batch["label"][DATA]
        outputs = model(inputs)
        loss = dice_loss(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: input {tuple(inputs.shape)} {inputs.dtype}, dice loss {loss.item():.4f}")
