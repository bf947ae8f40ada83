"""Building-footprint segmentation inference (infer_deeplab.py --no-cuda): args.cuda is False and the model stays on the CPU, but Predictor.load_weights() still calls torch.load(args.checkpoint) without map_location on a checkpoint saved during GPU training
source: https://github.com/aatifjiwani/rgb-footprint-extract/issues/16
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 35
root-cause: line 35
expect: DG010
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
from torch import serialization


class TinyDeepLab(nn.Module):
    def __init__(self, n_classes=2):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=2, dilation=2), nn.ReLU())
        self.classifier = nn.Conv2d(16, n_classes, 1)

    def forward(self, x):
        return self.classifier(self.backbone(x))


class Predictor:
    def __init__(self, args):
        self.args = args
        self.device = torch.device("cuda" if args.cuda else "cpu")
        self.model = TinyDeepLab().to(self.device)
        self.load_weights(args.checkpoint)

    def load_weights(self, path):
        checkpoint = torch.load(path)  # root-cause  # fails-here
        self.model.load_state_dict(checkpoint["state_dict"])
        self.best_pred = checkpoint["best_pred"]

    @torch.no_grad()
    def predict(self, image):
        return self.model(image.to(self.device)).argmax(1)


def save_gpu_training_checkpoint(path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"state_dict": TinyDeepLab().state_dict(), "best_pred": 0.81, "epoch": 40}, path)
    finally:
        serialization.location_tag = original


ckpt = os.path.join(tempfile.mkdtemp(), "checkpoint.pth.tar")
save_gpu_training_checkpoint(ckpt)
parser = argparse.ArgumentParser()
parser.add_argument("--checkpoint")
parser.add_argument("--no-cuda", action="store_true")
args = parser.parse_args(["--checkpoint", ckpt, "--no-cuda"])
args.cuda = not args.no_cuda and torch.cuda.is_available()
mask = Predictor(args).predict(torch.rand(1, 3, 64, 64))
print("building pixels", int(mask.sum()))
