"""Segmentation trainer with hand-written paired transforms: MaskToTensor turns the uint8 label mask into a .long() tensor (as for CrossEntropy), and the configured loss is a SoftBCEWithLogitsLoss whose smoothing is off, so the integer mask is passed unchanged to binary_cross_entropy_with_logits
source: https://github.com/initze/thaw-slump-segmentation/pull/18
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long (loss = self.loss_function(y_hat, target) with SoftBCEWithLogitsLoss)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 52
root-cause: line 21
expect: DG007
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ImageToTensor:
    def __call__(self, img, mask):
        return torch.from_numpy(img.astype(np.float32) / 255.0).unsqueeze(0), mask


class MaskToTensor:
    def __call__(self, img, mask):
        return img, torch.from_numpy(mask).long().unsqueeze(0)  # root-cause


class RandomFlip:
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def __call__(self, img, mask):
        if self.rng.random() < 0.5:
            return img.flip(-1), mask.flip(-1)
        return img, mask


class Compose:
    def __init__(self, ops):
        self.ops = ops

    def __call__(self, img, mask):
        for op in self.ops:
            img, mask = op(img, mask)
        return img, mask


class SoftBCEWithLogitsLoss(nn.Module):
    def __init__(self, smooth_factor=None):
        super().__init__()
        self.smooth_factor = smooth_factor

    def forward(self, y_pred, y_true):
        if self.smooth_factor is not None:
            y_true = (1 - y_true) * self.smooth_factor + y_true * (1 - self.smooth_factor)
        return F.binary_cross_entropy_with_logits(y_pred, y_true)  # fails-here


def tiles(n=8, size=16, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        img = rng.integers(0, 256, size=(size, size), dtype=np.uint8)
        yield img, (img > 180).astype(np.uint8)


def main():
    tf = Compose([ImageToTensor(), MaskToTensor(), RandomFlip()])
    pairs = [tf(img, mask) for img, mask in tiles()]
    x = torch.stack([p[0] for p in pairs])
    y = torch.stack([p[1] for p in pairs])
    net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))
    loss_function = SoftBCEWithLogitsLoss()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    loss = loss_function(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
