"""Video-object-segmentation evaluation that loads the CUDA-saved release weights (cuda:0 storage tags) with torch.load(path, map_location=device), where device is chosen at run time, then moves the model there
source: https://github.com/seoungwugoh/STM/issues/16
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


def make_model():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1), nn.Sigmoid())


def save_released_weights(path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(make_model().state_dict(), path)
    finally:
        serialization.location_tag = original


def load_weights(model, path, device):
    model.load_state_dict(torch.load(path, map_location=device))
    return model.to(device)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    path = os.path.join(tempfile.mkdtemp(), "STM_weights.pth")
    save_released_weights(path)
    model = load_weights(make_model(), path, device).eval()
    with torch.no_grad():
        print(model(torch.rand(1, 3, 16, 16, device=device)).mean().item())
