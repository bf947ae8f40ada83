"""Detector prediction on a uint8 HWC image that is converted to float and scaled to [0, 1] in preprocess (the fix for the uint8 input)
source: https://github.com/Deci-AI/super-gradients/issues/1073
reported-error: RuntimeError: Input type (unsigned char) and bias type (float) should be the same (in the broken version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn


class TinyYoloNAS(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.SiLU())
        self.cls_head = nn.Conv2d(16, num_classes, 1)
        self.box_head = nn.Conv2d(16, 4, 1)

    def forward(self, x):
        f = self.backbone(x)
        return self.cls_head(f), self.box_head(f)


def imread(path, size=64):
    rng = np.random.default_rng(len(path))
    return rng.integers(0, 256, size=(size, size, 3), dtype=np.uint8)


class Predictor:
    def __init__(self, model, conf=0.5):
        self.model = model.eval()
        self.conf = conf

    def preprocess(self, image):
        image = image[:, :, ::-1].copy()
        tensor = torch.from_numpy(image).permute(2, 0, 1).unsqueeze(0)
        return tensor.float().div(255.0)

    @torch.no_grad()
    def predict(self, path):
        cls, box = self.model(self.preprocess(imread(path)))
        scores = cls.sigmoid().amax(1)
        keep = scores > self.conf
        return box.permute(0, 2, 3, 1)[keep], scores[keep]


if __name__ == "__main__":
    boxes, scores = Predictor(TinyYoloNAS()).predict("08927.jpg")
    print(boxes.shape, scores.shape)
