"""Detector fine-tuned then used on a single image decoded as a uint8 HWC array, converted with torch.from_numpy and passed straight to the model
source: https://github.com/Deci-AI/super-gradients/issues/1073
reported-error: RuntimeError: Input type (unsigned char) and bias type (float) should be the same
outcome: RuntimeError: Input type (unsigned char) and bias type (float) should be the same at line 24
root-cause: line 41
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


class TinyYoloNAS(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.SiLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.SiLU(),
        )
        self.cls_head = nn.Conv2d(32, num_classes, 1)
        self.box_head = nn.Conv2d(32, 4, 1)

    def forward(self, x):
        f = self.backbone(x)  # fails-here
        return self.cls_head(f), self.box_head(f)


def imread(path, size=64):
    # stands in for cv2.imread: HWC, BGR, uint8
    rng = np.random.default_rng(len(path))
    return rng.integers(0, 256, size=(size, size, 3), dtype=np.uint8)


class Predictor:
    def __init__(self, model, conf=0.5):
        self.model = model.eval()
        self.conf = conf

    def preprocess(self, image):
        image = image[:, :, ::-1].copy()  # BGR -> RGB
        tensor = torch.from_numpy(image).permute(2, 0, 1).unsqueeze(0)  # root-cause
        return tensor

    @torch.no_grad()
    def predict(self, path):
        x = self.preprocess(imread(path))
        cls, box = self.model(x)
        scores = cls.sigmoid().amax(1)
        keep = scores > self.conf
        return box.permute(0, 2, 3, 1)[keep], scores[keep]


if __name__ == "__main__":
    best_model = TinyYoloNAS()
    test_image = "08927.jpg"
    boxes, scores = Predictor(best_model).predict(test_image)
    print(boxes.shape, scores.shape)
