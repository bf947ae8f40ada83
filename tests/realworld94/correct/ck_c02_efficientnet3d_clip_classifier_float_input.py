"""The EfficientNet3D clip classifier of ck02 with the obvious fix (the thread has no answer): train_model feeds model(images.float()) instead of images.double(), in training and validation, so the float32 clips meet the float32 Conv3dStaticSamePadding stem and five epochs train
source: https://github.com/shijianjian/EfficientNet-PyTorch-3D/issues/15
reported-error: (none; the fixed situation of ck02)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(42)
rng = np.random.default_rng(42)


# ---- efficientnet_pytorch_3d (EfficientNet3D.from_name, Conv3dStaticSamePadding, MBConvBlock3D), narrowed ----
class Conv3dStaticSamePadding(nn.Conv3d):
    def __init__(self, in_channels, out_channels, kernel_size, image_size, stride=1, **kwargs):
        super().__init__(in_channels, out_channels, kernel_size, stride, **kwargs)
        pads = []
        for i, k, s in zip(image_size, self.kernel_size, self.stride):
            o = -(-i // s)
            p = max((o - 1) * s + (k - 1) + 1 - i, 0)
            pads = [p // 2, p - p // 2] + pads
        self.static_padding = nn.ConstantPad3d(tuple(pads), 0.0)

    def forward(self, x):
        x = self.static_padding(x)
        x = F.conv3d(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)
        return x


class MBConvBlock3D(nn.Module):
    def __init__(self, cin, cout, stride, expand=4):
        super().__init__()
        mid = cin * expand
        self._expand_conv = nn.Conv3d(cin, mid, 1, bias=False)
        self._bn0 = nn.BatchNorm3d(mid)
        self._depthwise_conv = nn.Conv3d(mid, mid, 3, stride, 1, groups=mid, bias=False)
        self._bn1 = nn.BatchNorm3d(mid)
        self._se_reduce = nn.Conv3d(mid, max(1, cin // 4), 1)
        self._se_expand = nn.Conv3d(max(1, cin // 4), mid, 1)
        self._project_conv = nn.Conv3d(mid, cout, 1, bias=False)
        self._bn2 = nn.BatchNorm3d(cout)
        self.skip = stride == 1 and cin == cout

    def forward(self, inputs):
        x = F.silu(self._bn0(self._expand_conv(inputs)))
        x = F.silu(self._bn1(self._depthwise_conv(x)))
        s = F.adaptive_avg_pool3d(x, 1)
        x = torch.sigmoid(self._se_expand(F.silu(self._se_reduce(s)))) * x
        x = self._bn2(self._project_conv(x))
        return x + inputs if self.skip else x


class EfficientNet3D(nn.Module):
    def __init__(self, num_classes, in_channels, image_size):
        super().__init__()
        self._conv_stem = Conv3dStaticSamePadding(in_channels, 16, 3, image_size, stride=2, bias=False)
        self._bn0 = nn.BatchNorm3d(16)
        self._blocks = nn.ModuleList([MBConvBlock3D(16, 16, 1), MBConvBlock3D(16, 24, 2), MBConvBlock3D(24, 24, 1)])
        self._conv_head = nn.Conv3d(24, 64, 1, bias=False)
        self._bn1 = nn.BatchNorm3d(64)
        self._dropout = nn.Dropout(0.2)
        self._fc = nn.Linear(64, num_classes)

    @classmethod
    def from_name(cls, model_name, override_params=None, in_channels=3, image_size=(16, 32, 32)):
        return cls((override_params or {}).get("num_classes", 1000), in_channels, image_size)

    def extract_features(self, inputs):
        x = F.silu(self._bn0(self._conv_stem(inputs)))
        for block in self._blocks:
            x = block(x)
        return F.silu(self._bn1(self._conv_head(x)))

    def forward(self, inputs):
        x = self.extract_features(inputs)
        x = F.adaptive_avg_pool3d(x, 1).flatten(1)
        return self._fc(self._dropout(x))


# ---- accelerate.Accelerator (single process) ----------------------------------------------------------------
class Accelerator:
    device = torch.device("cpu")

    def prepare(self, *objs):
        return objs

    def backward(self, loss):
        loss.backward()


accelerator = Accelerator()


# ---- the notebook ------------------------------------------------------------------------------------------
class ClipDataset(Dataset):
    """Grey-level clips of 16 frames (1 x T x H x W), scaled to [0, 1] as float32; two classes."""

    def __init__(self, n):
        self.labels = rng.integers(0, 2, n)
        base = rng.integers(0, 256, (n, 1, 16, 32, 32)).astype(np.uint8)
        drift = (np.arange(16)[None, None, :, None, None] * 6 * self.labels[:, None, None, None, None])
        self.clips = np.clip(base // 2 + drift, 0, 255).astype(np.uint8)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        clip = torch.tensor(self.clips[i].astype(np.float32) / 255.0)
        return clip, torch.tensor(self.labels[i], dtype=torch.long)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.effnet = EfficientNet3D.from_name("efficientnet-b0", override_params={"num_classes": 2}, in_channels=1)

    def forward(self, x):
        # x = nn.functional.interpolate(x, size=(224,224,224), mode='trilinear')
        x = self.effnet(x)
        return x


def train_model(model, train_loader, val_loader, criterion, optimizer, num_epochs):
    for epoch in range(num_epochs):
        model.train()
        running = 0.0
        for item in train_loader:
            images, classes = item
            optimizer.zero_grad()
            output = model(images.float())
            loss = criterion(output, classes)
            accelerator.backward(loss)
            optimizer.step()
            running += loss.item()
        model.eval()
        correct = total = 0
        with torch.no_grad():
            for images, classes in val_loader:
                preds = model(images.float()).argmax(1)
                correct += (preds == classes).sum().item()
                total += classes.numel()
        print(f"epoch {epoch}: train loss {running / len(train_loader):.4f} val acc {correct / total:.3f}")


model = Model()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_loader = DataLoader(ClipDataset(24), batch_size=4, shuffle=True)
val_loader = DataLoader(ClipDataset(8), batch_size=4)
model, optimizer, train_loader, val_loader = accelerator.prepare(model, optimizer, train_loader, val_loader)
train_model(model, train_loader, val_loader, criterion, optimizer, 5)
