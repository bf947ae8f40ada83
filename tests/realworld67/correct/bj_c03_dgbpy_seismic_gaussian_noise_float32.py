"""The dgbpy-style seismic facies segmentation of bj03 (OpendTect/dgbpy PR #14) with the PR's fix: RandomGaussianNoise draws np.random.normal(...).astype('float32'), so the noisy sections stay float32 and the UNet trains; the labels still come as float32 arrays and are cast with target.type(torch.LongTensor) in the trainer before CrossEntropyLoss, and the float64 synthetic cubes are cast to float32 in the dataset
source: https://github.com/OpendTect/dgbpy/pull/14
reported-error: (none filed; the fixed situation of bj03)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

torch.manual_seed(0)
np.random.seed(0)


class RandomRotation:
    def __init__(self, p=0.55):
        self.p = p

    def update_pars(self, transform_dict):
        self.p = float(transform_dict["p"])

    def __call__(self, image, label, image_only=False):
        if self.p > np.random.uniform(0, 1):
            if image_only:
                return self.transform(image), label
            return self.transform(image), self.transform(label)
        return image, label

    def transform(self, arr):
        return np.ascontiguousarray(np.flip(arr, -1))


class RandomGaussianNoise:
    def __init__(self, p=1, std=0.2):
        self.p = p
        self.std = std

    def update_pars(self, transform_dict):
        self.p = float(transform_dict["p"])
        self.std = float(transform_dict["std"])

    def __call__(self, image, label, image_only=True):
        self.noise = np.random.normal(loc=0, scale=self.std, size=image.shape).astype("float32")
        if self.p > np.random.uniform(0, 1):
            return self.transform(image), label
        return image, label

    def transform(self, arr):
        arr = self.noise + arr
        return arr


all_transforms = {"RandomRotation": RandomRotation, "RandomGaussianNoise": RandomGaussianNoise}


class TransformComposefromDict:
    def __init__(self, transforms):
        self.transforms = []
        for transform, transform_pars in transforms.items():
            transform = all_transforms[transform]()
            transform.update_pars(transform_pars)
            self.transforms.append(transform)

    def __call__(self, image, label, image_only=False):
        for transform in self.transforms:
            image, label = transform(image, label, image_only=image_only)
        return image, label


class SeismicTrainDataset:
    def __init__(self, X, y, info, ndims, transform=None):
        self.ndims = ndims
        self.info = info
        self.X = X.astype("float32")
        self.y = y.astype("float32")
        self.transform = TransformComposefromDict(transform) if transform else None

    def __len__(self):
        return self.X.shape[0]

    def __getitem__(self, idx):
        image_only = len(self.y.shape) < 3
        if self.transform:
            X, Y = self.transform(self.X[idx], self.y[idx], image_only=image_only)
        else:
            X, Y = self.X[idx], self.y[idx]
        return self._adaptShape(X, Y)

    def _adaptShape(self, X, Y):
        # ndims == 2, segmentation: (channels, 1, inline, depth) -> (channels, inline, depth)
        return X[:, 0, :, :], Y[:, 0, :, :]


class DownBlock(nn.Module):
    def __init__(self, cin, cout, pool=True):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, padding=1)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1)
        self.pool = nn.MaxPool2d(2) if pool else nn.Identity()

    def forward(self, x):
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        return self.pool(x), x


class UpBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.up = nn.ConvTranspose2d(cin, cout, 2, stride=2)
        self.conv = nn.Conv2d(2 * cout, cout, 3, padding=1)

    def forward(self, before_pool, x):
        x = self.up(x)
        return torch.relu(self.conv(torch.cat([x, before_pool], 1)))


class UNet(nn.Module):
    def __init__(self, in_channels=1, out_channels=3, start_filts=8):
        super().__init__()
        self.down_blocks = nn.ModuleList([DownBlock(in_channels, start_filts), DownBlock(start_filts, 2 * start_filts, pool=False)])
        self.up_blocks = nn.ModuleList([UpBlock(2 * start_filts, start_filts)])
        self.conv_final = nn.Conv2d(start_filts, out_channels, 1)

    def forward(self, x):
        encoder_output = []
        for module in self.down_blocks:
            x, before_pooling = module(x)
            encoder_output.append(before_pooling)
        for i, module in enumerate(self.up_blocks):
            x = module(encoder_output[-(i + 2)], x)
        return self.conv_final(x)


class Trainer:
    def __init__(self, model, criterion, optimizer, training_DataLoader, epochs, imgdp):
        self.model, self.criterion, self.optimizer = model, criterion, optimizer
        self.training_DataLoader, self.epochs, self.imgdp = training_DataLoader, epochs, imgdp
        self.training_loss, self.training_accuracy = [], []

    def run_trainer(self):
        for i in range(self.epochs):
            self._train()
            print(f"epoch {i + 1}: train loss {self.training_loss[-1]:.4f}, accuracy {self.training_accuracy[-1]:.3f}")

    def _train(self):
        self.model.train()
        train_losses, train_accs = [], []
        for input, target in self.training_DataLoader:
            self.optimizer.zero_grad()
            out = self.model(input)
            target = target.type(torch.LongTensor)
            pred = np.argmax(out.detach().cpu().numpy(), axis=1)
            acc = float((pred.flatten() == target.numpy().flatten()).mean())
            loss = self.criterion(out, target.squeeze(1))
            train_losses.append(loss.item())
            train_accs.append(acc)
            loss.backward()
            self.optimizer.step()
        self.training_loss.append(np.mean(train_losses))
        self.training_accuracy.append(np.mean(train_accs))


# ---- synthetic 2D seismic sections: three layered facies, reflectivity convolved with a wavelet ----
n, H, W = 24, 32, 32
facies = np.zeros((n, 1, 1, H, W), dtype=np.int64)
X = np.zeros((n, 1, 1, H, W))
for k in range(n):
    b1, b2 = np.random.randint(8, 14), np.random.randint(18, 26)
    facies[k, 0, 0, b1:b2] = 1
    facies[k, 0, 0, b2:] = 2
    impedance = np.choose(facies[k, 0, 0], [1.0, 2.5, 1.6]) + np.random.normal(0, 0.05, (H, W))
    refl = np.diff(impedance, axis=0, prepend=impedance[:1])
    X[k, 0, 0] = np.apply_along_axis(lambda c: np.convolve(c, np.hanning(5), mode="same"), 0, refl)
imgdp = {"x_train": X, "y_train": facies.astype(np.float64), "info": {"classification": True}}

transforms = {"RandomRotation": {"p": 0.5}, "RandomGaussianNoise": {"p": 0.5, "std": 0.3}}
train_set = SeismicTrainDataset(imgdp["x_train"], imgdp["y_train"], imgdp["info"], ndims=2, transform=transforms)
train_loader = DataLoader(train_set, batch_size=4, shuffle=True)

model = UNet(in_channels=1, out_channels=3)
trainer = Trainer(model, nn.CrossEntropyLoss(), torch.optim.Adam(model.parameters(), lr=5e-3), train_loader, epochs=4, imgdp=imgdp)
trainer.run_trainer()
