"""Segmentation evaluate.py that restores a snapshot saved during GPU training (cuda:0 storage tags) with torch.load(args.restore_from, map_location=device), where device falls back to the CPU when torch.cuda.is_available() is False, then moves the model there
source: https://github.com/hfslyc/AdvSemiSeg/issues/58
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
from torch import serialization


def make_model(num_classes=4):
    return nn.Sequential(nn.Conv2d(3, 16, 3, padding=2, dilation=2), nn.ReLU(), nn.Conv2d(16, num_classes, 1))


def write_gpu_snapshot(path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(make_model().state_dict(), path)
    finally:
        serialization.location_tag = original


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--restore-from", required=True)
    parser.add_argument("--gpu", type=int, default=0)
    args = parser.parse_args(argv)
    device = torch.device(f"cuda:{args.gpu}" if torch.cuda.is_available() else "cpu")
    model = make_model()
    model.load_state_dict(torch.load(args.restore_from, map_location=device))
    model.to(device).eval()
    with torch.no_grad():
        pred = model(torch.rand(1, 3, 33, 33, device=device)).argmax(1)
    print("class histogram", torch.bincount(pred.flatten(), minlength=4).tolist())


if __name__ == "__main__":
    snapshot = os.path.join(tempfile.mkdtemp(), "VOC_25000.pth")
    write_gpu_snapshot(snapshot)
    main(["--restore-from", snapshot])
