"""A lightly BYOL pre-training run (re-typed: cosine_schedule before PR #1941, update_momentum, BYOL projection/prediction heads, NegativeCosineSimilarity) saves a resumable checkpoint each epoch that also keeps the EMA momentum from cosine_schedule; np.cos makes that value a numpy.float64, and resuming with the weights-only torch.load default fails
source: https://github.com/lightly-ai/lightly/issues/1902
reported-error: "cosine_schedule returns np.float64 instead of float, breaking PyTorch checkpoint loading ... When a checkpoint contains a np.float64 value, loading it requires explicitly allowlisting NumPy types as safe globals" (issue #1902; fixed by PR #1941, return float(decay))
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 160
root-cause: line 42
expect: DG011
"""
import copy
import os
import tempfile
import warnings
from typing import Optional

import numpy as np
import torch
from torch import nn

torch.manual_seed(0)


def cosine_schedule(step: int, max_steps: int, start_value: float, end_value: float,
                    period: Optional[int] = None) -> float:
    """Use cosine decay to gradually modify start_value to reach target end_value."""
    if step < 0:
        raise ValueError(f"Current step number {step} can't be negative.")
    if max_steps < 0:
        raise ValueError(f"Total step number {max_steps} can't be negative.")
    if period is None and step > max_steps:
        warnings.warn(f"Current step number {step} exceeds max_steps {max_steps}.", category=RuntimeWarning)
    if period is not None and period <= 0:
        raise ValueError(f"Period {period} must be >= 1")

    decay: float
    if period is not None:  # "cycle" based on period, if provided
        decay = end_value - (end_value - start_value) * (np.cos(2 * np.pi * step / period) + 1) / 2
    elif max_steps <= 1:
        decay = end_value
    elif step >= max_steps - 1:
        decay = end_value
    else:
        decay = end_value - (end_value - start_value) * (np.cos(np.pi * step / (max_steps - 1)) + 1) / 2
    return decay  # root-cause


@torch.no_grad()
def update_momentum(model: nn.Module, model_ema: nn.Module, m: float):
    model_params = list(model.parameters())
    model_ema_params = list(model_ema.parameters())
    torch._foreach_mul_(model_ema_params, m)
    torch._foreach_add_(model_ema_params, model_params, alpha=1.0 - m)


def deactivate_requires_grad(model: nn.Module):
    for param in model.parameters():
        param.requires_grad = False


class ProjectionHead(nn.Module):
    def __init__(self, blocks):
        super().__init__()
        layers = []
        for input_dim, output_dim, batch_norm, non_linearity in blocks:
            layers.append(nn.Linear(input_dim, output_dim, bias=not bool(batch_norm)))
            if batch_norm:
                layers.append(batch_norm)
            if non_linearity:
                layers.append(non_linearity)
        self.layers = nn.Sequential(*layers)

    def forward(self, x):
        return self.layers(x)


class BYOLProjectionHead(ProjectionHead):
    def __init__(self, input_dim=2048, hidden_dim=4096, output_dim=256):
        super().__init__([(input_dim, hidden_dim, nn.BatchNorm1d(hidden_dim), nn.ReLU()),
                          (hidden_dim, output_dim, None, None)])


class BYOLPredictionHead(ProjectionHead):
    def __init__(self, input_dim=256, hidden_dim=4096, output_dim=256):
        super().__init__([(input_dim, hidden_dim, nn.BatchNorm1d(hidden_dim), nn.ReLU()),
                          (hidden_dim, output_dim, None, None)])


class NegativeCosineSimilarity(nn.Module):
    def forward(self, x0, x1):
        return -nn.functional.cosine_similarity(x0, x1, dim=1).mean()


class BYOL(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone
        self.projection_head = BYOLProjectionHead(64, 128, 32)
        self.prediction_head = BYOLPredictionHead(32, 128, 32)
        self.backbone_momentum = copy.deepcopy(self.backbone)
        self.projection_head_momentum = copy.deepcopy(self.projection_head)
        deactivate_requires_grad(self.backbone_momentum)
        deactivate_requires_grad(self.projection_head_momentum)

    def forward(self, x):
        y = self.backbone(x).flatten(start_dim=1)
        return self.prediction_head(self.projection_head(y))

    def forward_momentum(self, x):
        y = self.backbone_momentum(x).flatten(start_dim=1)
        return self.projection_head_momentum(y).detach()


def byol_views(images):
    """Two random views: horizontal flip, brightness jitter and noise."""
    flip = torch.rand(images.shape[0], 1, 1, 1) < 0.5
    v0 = torch.where(flip, images.flip(-1), images) * (0.8 + 0.4 * torch.rand(images.shape[0], 1, 1, 1))
    v1 = images + 0.1 * torch.randn_like(images)
    return v0, v1


backbone = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
model = BYOL(backbone)
images = torch.rand(64, 3, 16, 16)
dataloader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(images), batch_size=16, shuffle=True,
                                         drop_last=True)
criterion = NegativeCosineSimilarity()
optimizer = torch.optim.SGD(model.parameters(), lr=0.06)
epochs = 4


def train_epoch(epoch):
    total_loss = 0
    momentum_val = cosine_schedule(epoch, epochs, 0.996, 1)
    for (x,) in dataloader:
        x0, x1 = byol_views(x)
        update_momentum(model.backbone, model.backbone_momentum, m=momentum_val)
        update_momentum(model.projection_head, model.projection_head_momentum, m=momentum_val)
        p0, z0 = model(x0), model.forward_momentum(x0)
        p1, z1 = model(x1), model.forward_momentum(x1)
        loss = 0.5 * (criterion(p0, z1) + criterion(p1, z0))
        total_loss += loss.detach()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    print(f"epoch: {epoch:>02}, loss: {total_loss / len(dataloader):.5f}, momentum: {momentum_val!r}")
    return momentum_val


with tempfile.TemporaryDirectory() as ckpt_dir:
    ckpt_path = os.path.join(ckpt_dir, "byol_last.pt")
    for epoch in range(2):  # the job is preempted after epoch 1
        momentum_val = train_epoch(epoch)
        torch.save({
            "epoch": epoch,
            "model": model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "momentum": momentum_val,  # root-cause-alt
        }, ckpt_path)

    print("Resuming from", os.path.basename(ckpt_path))
    ckpt = torch.load(ckpt_path)  # fails-here
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    for epoch in range(ckpt["epoch"] + 1, epochs):
        train_epoch(epoch)
