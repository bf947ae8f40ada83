import torch.nn as nn


class TinyClassifier(nn.Module):
    def __init__(self, in_channels=3, num_classes=10):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(in_channels, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.head = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


MODELS = {"TinyClassifier": TinyClassifier}


def build(cfg):
    cfg = dict(cfg)
    return MODELS[cfg.pop("type")](**cfg)
