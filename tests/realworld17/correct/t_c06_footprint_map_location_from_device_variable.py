"""Building-footprint inference on any machine: the GPU-trained checkpoint is loaded with map_location taken from the predictor's device variable, then the model is moved there
source: https://github.com/aatifjiwani/rgb-footprint-extract/issues/16
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
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
    def __init__(self, checkpoint, use_cuda):
        self.device = torch.device("cuda" if use_cuda and torch.cuda.is_available() else "cpu")
        ckpt = torch.load(checkpoint, map_location=self.device)
        self.model = TinyDeepLab()
        self.model.load_state_dict(ckpt["state_dict"])
        self.model.to(self.device).eval()

    @torch.no_grad()
    def predict(self, image):
        return self.model(image.to(self.device)).argmax(1)


path = os.path.join(tempfile.mkdtemp(), "checkpoint.pth.tar")
original = serialization.location_tag
serialization.location_tag = lambda storage: "cuda:0"
try:
    torch.save({"state_dict": TinyDeepLab().state_dict(), "best_pred": 0.81}, path)
finally:
    serialization.location_tag = original
print("building pixels", int(Predictor(path, use_cuda=True).predict(torch.rand(1, 3, 64, 64)).sum()))
