"""Hand-written fine-tuning of a timm-style RegNet (re-typed: create_model(pretrained=True) from a local 1000-class checkpoint, a ClassifierHead whose reset() rebuilds its fc through _create_fc, reset_classifier) in float64: the script casts the pretrained model with model.to(dtype=torch.float64) and only then calls reset_classifier(4); ClassifierHead.reset builds the new nn.Linear with PyTorch's float32 default, so the float64 pooled features meet a float32 head
source: https://github.com/huggingface/pytorch-image-models/pull/2743
reported-error: "ClassifierHead.reset, NormMlpClassifierHead.reset, and ClNormMlpClassifierHead.reset created replacement linear or convolution layers with PyTorch's CPU and float32 defaults. Resetting a head after moving the model to another dtype therefore produced mixed-dtype modules and made the next forward pass fail. ... Before this change, each case rebuilt float32 parameters and failed on float64 input." (the code carried "# FIXME get current device/dtype for reset?"; follow-up PR #2752)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 91
root-cause: line 81
expect: DG004
"""
import os
import tempfile
from typing import Optional

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
HUB_DIR = tempfile.mkdtemp()


class SelectAdaptivePool2d(nn.Module):
    def __init__(self, pool_type="avg", flatten=False):
        super().__init__()
        self.pool_type = pool_type or ""
        self.flatten = nn.Flatten(1) if flatten else nn.Identity()

    def feat_mult(self):
        return 2 if self.pool_type == "catavgmax" else 1

    def forward(self, x):
        if self.pool_type == "avg":
            x = F.adaptive_avg_pool2d(x, 1)
        elif self.pool_type == "max":
            x = F.adaptive_max_pool2d(x, 1)
        elif self.pool_type == "catavgmax":
            x = torch.cat([F.adaptive_avg_pool2d(x, 1), F.adaptive_max_pool2d(x, 1)], 1)
        return self.flatten(x)


def _create_pool(num_features, num_classes, pool_type="avg", use_conv=False):
    flatten_in_pool = not use_conv
    if not pool_type:
        flatten_in_pool = False
    global_pool = SelectAdaptivePool2d(pool_type=pool_type, flatten=flatten_in_pool)
    return global_pool, num_features * global_pool.feat_mult()


def _create_fc(num_features, num_classes, use_conv=False, device=None, dtype=None):
    if num_classes <= 0:
        fc = nn.Identity()
    elif use_conv:
        fc = nn.Conv2d(num_features, num_classes, 1, bias=True, device=device, dtype=dtype)
    else:
        fc = nn.Linear(num_features, num_classes, bias=True, device=device, dtype=dtype)
    return fc


def create_classifier(num_features, num_classes, pool_type="avg", use_conv=False, device=None, dtype=None):
    global_pool, num_pooled_features = _create_pool(num_features, num_classes, pool_type, use_conv=use_conv)
    fc = _create_fc(num_pooled_features, num_classes, use_conv=use_conv, device=device, dtype=dtype)
    return global_pool, fc


class ClassifierHead(nn.Module):
    def __init__(self, in_features, num_classes, pool_type="avg", drop_rate=0.0, use_conv=False, device=None, dtype=None):
        super().__init__()
        self.in_features, self.use_conv = in_features, use_conv
        self.global_pool, self.fc = create_classifier(in_features, num_classes, pool_type, use_conv=use_conv,
                                                      device=device, dtype=dtype)
        self.drop = nn.Dropout(drop_rate)
        self.flatten = nn.Flatten(1) if use_conv and pool_type else nn.Identity()

    def reset(self, num_classes: int, pool_type: Optional[str] = None):
        # FIXME get current device/dtype for reset?
        if pool_type is not None and pool_type != self.global_pool.pool_type:
            self.global_pool, self.fc = create_classifier(self.in_features, num_classes, pool_type=pool_type,
                                                          use_conv=self.use_conv)
            self.flatten = nn.Flatten(1) if self.use_conv and pool_type else nn.Identity()
        else:
            num_pooled_features = self.in_features * self.global_pool.feat_mult()
            self.fc = _create_fc(  # root-cause
                num_pooled_features,
                num_classes,
                use_conv=self.use_conv,
            )

    def forward(self, x, pre_logits: bool = False):
        x = self.drop(self.global_pool(x))
        if pre_logits:
            return self.flatten(x)
        x = self.fc(x)  # fails-here
        return self.flatten(x)


class Bottleneck(nn.Module):
    def __init__(self, in_chs, out_chs, stride, group_size=8):
        super().__init__()
        self.conv1 = nn.Sequential(nn.Conv2d(in_chs, out_chs, 1, bias=False), nn.BatchNorm2d(out_chs), nn.ReLU())
        self.conv2 = nn.Sequential(nn.Conv2d(out_chs, out_chs, 3, stride, 1, groups=out_chs // group_size, bias=False),
                                   nn.BatchNorm2d(out_chs), nn.ReLU())
        self.conv3 = nn.Sequential(nn.Conv2d(out_chs, out_chs, 1, bias=False), nn.BatchNorm2d(out_chs))
        self.downsample = None
        if stride != 1 or in_chs != out_chs:
            self.downsample = nn.Sequential(nn.Conv2d(in_chs, out_chs, 1, stride, bias=False), nn.BatchNorm2d(out_chs))

    def forward(self, x):
        shortcut = x if self.downsample is None else self.downsample(x)
        return F.relu(self.conv3(self.conv2(self.conv1(x))) + shortcut)


class RegNet(nn.Module):
    def __init__(self, widths=(16, 32, 64), num_classes=1000, global_pool="avg", drop_rate=0.0):
        super().__init__()
        self.num_classes = num_classes
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        stages, prev = [], 16
        for w in widths:
            stages.append(nn.Sequential(Bottleneck(prev, w, 2), Bottleneck(w, w, 1)))
            prev = w
        self.stages = nn.Sequential(*stages)
        self.num_features = prev
        self.head = ClassifierHead(in_features=prev, num_classes=num_classes, pool_type=global_pool, drop_rate=drop_rate)

    def reset_classifier(self, num_classes: int, global_pool: Optional[str] = None) -> None:
        self.num_classes = num_classes
        self.head.reset(num_classes, pool_type=global_pool)

    def forward(self, x):
        return self.head(self.stages(self.stem(x)))


def create_model(name, pretrained=False, **kwargs):
    model = RegNet(**kwargs)
    if pretrained:
        state = torch.load(os.path.join(HUB_DIR, name, "pytorch_model.bin"), map_location="cpu")
        model.load_state_dict(state)
    return model


# the hub's ImageNet-1k weights, cached locally
os.makedirs(os.path.join(HUB_DIR, "regnetx_tiny"))
torch.save(RegNet().state_dict(), os.path.join(HUB_DIR, "regnetx_tiny", "pytorch_model.bin"))

# --- fine-tuning script: 4 leaf-disease classes, double precision throughout ---
num_classes, model_dtype, device = 4, torch.float64, torch.device("cpu")
model = create_model("regnetx_tiny", pretrained=True)
model.to(device=device, dtype=model_dtype)
model.reset_classifier(num_classes)  # root-cause-alt

rng = np.random.RandomState(0)
images = rng.rand(64, 3, 32, 32).astype(np.float32)
labels = rng.randint(0, num_classes, size=64)
loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(torch.from_numpy(images), torch.from_numpy(labels)), batch_size=16, shuffle=True)

head_params = list(model.head.parameters())
head_ids = {id(p) for p in head_params}
optimizer = torch.optim.SGD([
    {"params": [p for p in model.parameters() if id(p) not in head_ids], "lr": 1e-3},
    {"params": head_params, "lr": 1e-2},
], momentum=0.9)
loss_fn = nn.CrossEntropyLoss()

for epoch in range(2):
    model.train()
    for input, target in loader:
        input, target = input.to(device=device, dtype=model_dtype), target.to(device=device)
        loss = loss_fn(model(input), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
