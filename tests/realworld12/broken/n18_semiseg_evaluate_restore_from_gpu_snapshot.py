"""Semi-supervised segmentation evaluate.py whose --restore-from snapshot was saved during GPU training (simulated with cuda:0 storage tags); main() restores it with torch.load(args.restore_from) and no map_location on a CPU-only machine, before the model is moved anywhere
source: https://github.com/hfslyc/AdvSemiSeg/issues/58
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 55
root-cause: line 55
expect: DG010
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch import serialization


class DeepLabLite(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=2, dilation=2), nn.ReLU(),
                                      nn.Conv2d(16, 16, 3, padding=4, dilation=4), nn.ReLU())
        self.classifier = nn.Conv2d(16, num_classes, 1)

    def forward(self, x):
        return self.classifier(self.features(x))


def write_gpu_snapshot(path):
    """Stand-in for the training run on a GPU: storages are tagged cuda:0."""
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(DeepLabLite().state_dict(), path)
    finally:
        serialization.location_tag = original


def get_arguments(argv):
    parser = argparse.ArgumentParser(description="evaluate segmentation snapshot")
    parser.add_argument("--restore-from", type=str, required=True)
    parser.add_argument("--num-classes", type=int, default=4)
    parser.add_argument("--gpu", type=int, default=0)
    return parser.parse_args(argv)


def fast_hist(a, b, n):
    k = (a >= 0) & (a < n)
    return np.bincount(n * a[k].astype(int) + b[k], minlength=n ** 2).reshape(n, n)


def main(argv):
    args = get_arguments(argv)
    model = DeepLabLite(args.num_classes)
    saved_state_dict = torch.load(args.restore_from)  # root-cause # fails-here
    model.load_state_dict(saved_state_dict)
    model.eval()
    hist = np.zeros((args.num_classes, args.num_classes))
    with torch.no_grad():
        for _ in range(4):
            image = torch.rand(1, 3, 33, 33)
            gt = np.random.default_rng(0).integers(0, args.num_classes, (33, 33))
            pred = model(image).argmax(1)[0].numpy()
            hist += fast_hist(gt.flatten(), pred.flatten(), args.num_classes)
    print(f"mIoU {np.nanmean(np.diag(hist) / (hist.sum(1) + hist.sum(0) - np.diag(hist))):.3f}")


if __name__ == "__main__":
    snapshot = os.path.join(tempfile.mkdtemp(), "VOC_25000.pth")
    write_gpu_snapshot(snapshot)
    main(["--restore-from", snapshot])
