"""SSD detection demo: setup_runtime() follows the repo's README and calls torch.set_default_tensor_type with 'torch.cuda.FloatTensor' on GPU machines and 'torch.FloatTensor' otherwise; on torch >= 2.1 the call is deprecated and warns, and on GPU it also moves every default-created tensor
source: https://github.com/amdegroot/ssd.pytorch/issues/32
reported-error: tensors are on different GPUs / suggested fix: torch.set_default_tensor_type('torch.cuda.FloatTensor') before model loading
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 21
expect: DG002
"""
import argparse
from itertools import product

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def setup_runtime(use_cuda):
    if use_cuda and torch.cuda.is_available():
        torch.set_default_tensor_type("torch.cuda.FloatTensor")
        return torch.device("cuda")
    torch.set_default_tensor_type("torch.FloatTensor")  # root-cause
    return torch.device("cpu")


class PriorBox:
    def __init__(self, fmap=(8, 4), steps=(8, 16), sizes=(0.2, 0.45), image=64):
        self.fmap, self.steps, self.sizes, self.image = fmap, steps, sizes, image

    def forward(self):
        boxes = []
        for k, f in enumerate(self.fmap):
            for i, j in product(range(f), repeat=2):
                cx = (j + 0.5) * self.steps[k] / self.image
                cy = (i + 0.5) * self.steps[k] / self.image
                boxes += [cx, cy, self.sizes[k], self.sizes[k]]
        return torch.Tensor(boxes).view(-1, 4).clamp_(0, 1)


class TinySSD(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.num_classes = num_classes
        self.base = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(),
                                  nn.Conv2d(32, 32, 3, 2, 1), nn.ReLU())
        self.extra = nn.Sequential(nn.Conv2d(32, 32, 3, 2, 1), nn.ReLU())
        self.loc = nn.ModuleList([nn.Conv2d(32, 4, 3, padding=1), nn.Conv2d(32, 4, 3, padding=1)])
        self.conf = nn.ModuleList([nn.Conv2d(32, num_classes, 3, padding=1), nn.Conv2d(32, num_classes, 3, padding=1)])

    def forward(self, x):
        f1 = self.base(x)
        f2 = self.extra(f1)
        loc = torch.cat([l(f).permute(0, 2, 3, 1).reshape(x.size(0), -1, 4) for l, f in zip(self.loc, (f1, f2))], 1)
        conf = torch.cat([c(f).permute(0, 2, 3, 1).reshape(x.size(0), -1, self.num_classes)
                          for c, f in zip(self.conf, (f1, f2))], 1)
        return loc, F.softmax(conf, -1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cuda", action="store_true", default=True)
    args = parser.parse_args([])
    device = setup_runtime(args.cuda)
    net = TinySSD().to(device).eval()
    priors = PriorBox().forward()
    image = np.random.default_rng(0).integers(0, 255, (64, 64, 3)).astype(np.float32)
    x = torch.from_numpy((image - 104.0) / 57.0).permute(2, 0, 1).unsqueeze(0).to(device)
    with torch.no_grad():
        loc, conf = net(x)
    boxes = torch.cat([priors[:, :2] + loc[0, :, :2] * 0.1 * priors[:, 2:],
                       priors[:, 2:] * torch.exp(loc[0, :, 2:] * 0.2)], 1)
    score, label = conf[0, :, 1:].max(1)
    keep = score.topk(3).indices
    print("priors", tuple(priors.shape), "top boxes", boxes[keep].shape, "labels", label[keep].tolist())


if __name__ == "__main__":
    main()
