"""Segmentation trainer whose MaskToTensor still produces .long() masks, but the SoftBCEWithLogitsLoss is configured with smooth_factor=0.1: the smoothing arithmetic turns the integer mask into float soft targets before binary_cross_entropy_with_logits
source: https://github.com/initze/thaw-slump-segmentation/pull/18
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class PairToTensor:
    def __call__(self, img, mask):
        return torch.from_numpy(img.astype(np.float32) / 255.0).unsqueeze(0), torch.from_numpy(mask).long().unsqueeze(0)


class SoftBCEWithLogitsLoss(nn.Module):
    def __init__(self, smooth_factor=None):
        super().__init__()
        self.smooth_factor = smooth_factor

    def forward(self, y_pred, y_true):
        if self.smooth_factor is not None:
            y_true = (1 - y_true) * self.smooth_factor + y_true * (1 - self.smooth_factor)
        return F.binary_cross_entropy_with_logits(y_pred, y_true)


def iou(logits, mask):
    pred = logits > 0
    inter = (pred & (mask == 1)).sum().item()
    union = (pred | (mask == 1)).sum().item()
    return inter / max(union, 1)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    tf = PairToTensor()
    pairs = [tf(img, (img > 180).astype(np.uint8)) for img in rng.integers(0, 256, size=(8, 16, 16), dtype=np.uint8)]
    x, y = torch.stack([p[0] for p in pairs]), torch.stack([p[1] for p in pairs])
    net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    loss_function = SoftBCEWithLogitsLoss(smooth_factor=0.1)
    for _ in range(5):
        logits = net(x)
        loss = loss_function(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"loss {loss.item():.4f} ({loss.dtype}) iou {iou(logits, y):.3f}")
