"""Wafer-map defect classification trained with a timm-style loop and timm's ModelEmaV3 kept on the CPU (--model-ema-force-cpu, i.e. ModelEmaV3(model, device='cpu'), "to keep EMA from using GPU resources"): with a device set the EMA turns foreach off and moves its copy to the CPU, but the per-tensor path of apply_update_ calls ema_v.lerp_(model_v, ...) with the model's tensor as it is, so with the model on CUDA the first EMA update mixes a CPU EMA tensor with a CUDA weight
source: https://github.com/huggingface/pytorch-image-models/issues/2127
reported-error: "If device set to cpu, the following line will report RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!" (timm/utils/model_ema.py, ModelEmaV3.apply_update_); maintainer: "believe it needs ema_v.lerp_(model_v.to(ema_v.device(), weight=1. - decay)"
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (the reporter's error; not run on a GPU for this set) at line 66; on CPU: ok
root-cause: line 66
expect: DG009
"""
from copy import deepcopy
from typing import Optional

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
CLASSES = ["none", "center", "edge-ring", "scratch", "donut"]


# ---- timm/utils/model_ema.py (ModelEmaV3 at the commit)
class ModelEmaV3(nn.Module):
    def __init__(self, model, decay: float = 0.9999, min_decay: float = 0.0, update_after_step: int = 0,
                 use_warmup: bool = False, warmup_gamma: float = 1.0, warmup_power: float = 2 / 3,
                 device: Optional[torch.device] = None, foreach: bool = True):
        super().__init__()
        self.module = deepcopy(model)
        self.module.eval()
        self.decay, self.min_decay, self.update_after_step = decay, min_decay, update_after_step
        self.use_warmup, self.warmup_gamma, self.warmup_power = use_warmup, warmup_gamma, warmup_power
        self.foreach = foreach
        self.device = device  # perform ema on different device from model if set
        if self.device is not None and device != next(model.parameters()).device:
            self.foreach = False  # cannot use foreach methods with different devices
            self.module.to(device=device)

    def get_decay(self, step: Optional[int] = None) -> float:
        if step is None:
            return self.decay
        step = max(0, step - self.update_after_step - 1)
        if step <= 0:
            return 0.0
        if self.use_warmup:
            decay = 1 - (1 + step / self.warmup_gamma) ** -self.warmup_power
            return max(min(decay, self.decay), self.min_decay)
        return self.decay

    @torch.no_grad()
    def update(self, model, step: Optional[int] = None):
        self.apply_update_(model, self.get_decay(step))

    def apply_update_(self, model, decay: float):
        if self.foreach:
            ema_lerp_values, model_lerp_values = [], []
            for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
                if ema_v.is_floating_point():
                    ema_lerp_values.append(ema_v)
                    model_lerp_values.append(model_v)
                else:
                    ema_v.copy_(model_v)
            torch._foreach_lerp_(ema_lerp_values, model_lerp_values, weight=1. - decay)
        else:
            for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
                if ema_v.is_floating_point():
                    ema_v.lerp_(model_v, weight=1. - decay)  # root-cause # fails-here
                else:
                    ema_v.copy_(model_v)

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)


class WaferNet(nn.Module):
    def __init__(self, num_classes=len(CLASSES)):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.head = nn.Linear(64, num_classes)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def synth_wafer_maps(n, size=32, seed=0):
    """Die-level pass/fail maps: random failures plus one spatial defect signature per class."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[:size, :size] - (size - 1) / 2
    r = np.hypot(yy, xx) / (size / 2)
    on_wafer = r <= 1.0
    maps, labels = np.zeros((n, 1, size, size), np.float32), rng.integers(0, len(CLASSES), n)
    for i, c in enumerate(labels):
        fail = rng.random((size, size)) < 0.05
        if c == 1:
            fail |= (r < 0.3) & (rng.random((size, size)) < 0.7)
        elif c == 2:
            fail |= (r > 0.85) & (rng.random((size, size)) < 0.7)
        elif c == 3:
            k = rng.uniform(-1, 1)
            fail |= np.abs(yy - k * xx) < 1.0
        elif c == 4:
            fail |= (r > 0.45) & (r < 0.65) & (rng.random((size, size)) < 0.7)
        maps[i, 0] = np.where(on_wafer, np.where(fail, 2.0, 1.0), 0.0) / 2.0
    return torch.from_numpy(maps), torch.from_numpy(labels)


x_train, y_train = synth_wafer_maps(640, seed=0)
x_val, y_val = synth_wafer_maps(160, seed=1)
loader_train = DataLoader(TensorDataset(x_train, y_train), batch_size=64, shuffle=True)

model = WaferNet().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.05)
model_ema_force_cpu = True
model_ema = ModelEmaV3(model, decay=0.99, use_warmup=True, device="cpu" if model_ema_force_cpu else None)  # root-cause-alt

num_updates = 0
for epoch in range(4):
    model.train()
    for images, target in loader_train:
        images, target = images.to(device), target.to(device)
        loss = F.cross_entropy(model(images), target, label_smoothing=0.1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        num_updates += 1
        model_ema.update(model, step=num_updates)
    print(f"epoch {epoch}: loss {loss.item():.3f}")


@torch.no_grad()
def validate(net, dev):
    net.eval()
    return (net(x_val.to(dev)).argmax(1).cpu() == y_val).float().mean().item()


# the EMA lives on the CPU: validated there, after training (as timm's docstring says)
print(f"top-1 model {validate(model, device):.3f}, EMA (on cpu) {validate(model_ema, torch.device('cpu')):.3f}")
