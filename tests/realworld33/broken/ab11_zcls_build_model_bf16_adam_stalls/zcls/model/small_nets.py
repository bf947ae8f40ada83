import torch.nn as nn


def _block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


def resnet_tiny(num_classes=10):
    return nn.Sequential(_block(3, 32), nn.MaxPool2d(2), _block(32, 64), nn.MaxPool2d(2), _block(64, 64),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, num_classes))


def mobilenet_tiny(num_classes=10):
    return nn.Sequential(_block(3, 16), nn.MaxPool2d(2), _block(16, 32), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                         nn.Linear(32, num_classes))


__dict__ = {"resnet_tiny": resnet_tiny, "mobilenet_tiny": mobilenet_tiny}
