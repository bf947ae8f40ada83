"""The MONAI 0.1-style 3D segmentation loop of br01 (Project-MONAI/MONAI #356) with the fix of PR #360: RandGaussianNoise still draws float64 noise from NumPy but casts it to the volume's dtype before adding it, so the noisy volumes stay float32 and the Conv3d network trains
source: https://github.com/Project-MONAI/MONAI/issues/356
reported-error: "Applying the RandGaussianNoise tranform to a np.float32 array changes the dtype to np.float64. This causes a crash down the line since pytorch expects np.float32 inputs." (fixed in PR #360 by img + self._noise.astype(img.dtype))
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)


class Randomizable:
    R = np.random.RandomState()

    def set_random_state(self, seed):
        self.R = np.random.RandomState(seed)
        return self


def rescale_array(arr, minv=0.0, maxv=1.0, dtype=np.float32):
    if dtype is not None:
        arr = arr.astype(dtype)
    mina, maxa = np.min(arr), np.max(arr)
    norm = (arr - mina) / (maxa - mina)
    return (norm * (maxv - minv)) + minv


class ScaleIntensity:
    def __init__(self, minv=0.0, maxv=1.0, dtype=np.float32):
        self.minv, self.maxv, self.dtype = minv, maxv, dtype

    def __call__(self, img):
        return rescale_array(img, self.minv, self.maxv, self.dtype)


class AddChannel:
    def __call__(self, img):
        return img[None]


class RandGaussianNoise(Randomizable):
    def __init__(self, prob=0.1, mean=0.0, std=0.1):
        self.prob, self.mean, self.std = prob, mean, std
        self._do_transform = False
        self._noise = None

    def randomize(self, im_shape):
        self._do_transform = self.R.random() < self.prob
        self._noise = self.R.normal(self.mean, self.R.uniform(0, self.std), size=im_shape)

    def __call__(self, img):
        self.randomize(img.shape)
        return img + self._noise.astype(img.dtype) if self._do_transform else img


class ToTensor:
    def __call__(self, img):
        if torch.is_tensor(img):
            return img.contiguous()
        return torch.as_tensor(np.ascontiguousarray(img))


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, x):
        for t in self.transforms:
            x = t(x)
        return x


class ArrayDataset(Dataset):
    def __init__(self, images, segs, img_transform, seg_transform):
        self.images, self.segs = images, segs
        self.img_transform, self.seg_transform = img_transform, seg_transform

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.img_transform(self.images[i]), self.seg_transform(self.segs[i])


class SmallUNet3D(nn.Module):
    def __init__(self, in_channels=1, out_channels=2):
        super().__init__()
        self.down = nn.Conv3d(in_channels, 8, 3, padding=1)
        self.mid = nn.Conv3d(8, 8, 3, padding=1)
        self.out = nn.Conv3d(16, out_channels, 1)

    def forward(self, x):
        d = torch.relu(self.down(x))
        m = torch.relu(self.mid(nn.functional.max_pool3d(d, 2)))
        m = nn.functional.interpolate(m, size=d.shape[2:], mode="nearest")
        return self.out(torch.cat([d, m], dim=1))


rng = np.random.RandomState(1)
images, segs = [], []
for _ in range(8):
    vol = rng.normal(-500.0, 200.0, size=(16, 16, 16)).astype(np.float32)  # CT-like Hounsfield units
    seg = np.zeros((16, 16, 16), np.int64)
    seg[4:10, 5:11, 6:12] = 1
    vol[seg == 1] += 400.0
    images.append(vol)
    segs.append(seg)

train_imtrans = Compose([ScaleIntensity(), AddChannel(), RandGaussianNoise(prob=0.5).set_random_state(0), ToTensor()])
train_segtrans = Compose([ToTensor()])
loader = DataLoader(ArrayDataset(images, segs, train_imtrans, train_segtrans), batch_size=2, shuffle=True)

net = SmallUNet3D()
loss_function = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(net.parameters(), 1e-3)
for epoch in range(2):
    epoch_loss = 0.0
    for inputs, labels in loader:
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = loss_function(outputs, labels)
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()
    print(f"epoch {epoch + 1} average loss: {epoch_loss / len(loader):.4f}")
