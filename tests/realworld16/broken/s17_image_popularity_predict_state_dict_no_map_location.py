"""Intrinsic image popularity predictor: predict(image, model_path) rebuilds the ResNet-style regressor and calls model.load_state_dict(torch.load(model_path)) on a checkpoint the authors saved from a GPU; on a CPU-only machine the load fails
source: https://github.com/dingkeyan93/Intrinsic-Image-Popularity/issues/1
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 37
root-cause: line 37
expect: DG010
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch import serialization


def build_model():
    return nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 1))


def save_like_authors(path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(build_model().state_dict(), path)
    finally:
        serialization.location_tag = original


def prepare_image(arr):
    return torch.from_numpy(arr.transpose(2, 0, 1)).float().div(255).unsqueeze(0)


def predict(image, model_path):
    model = build_model()
    model.load_state_dict(torch.load(model_path))  # root-cause  # fails-here
    model.eval()
    with torch.no_grad():
        return model(image).item()


parser = argparse.ArgumentParser()
parser.add_argument("--image_path", default="synthetic")
args = parser.parse_args([])
model_path = os.path.join(tempfile.mkdtemp(), "model-resnet50.pth")
save_like_authors(model_path)
img = np.random.default_rng(0).integers(0, 256, (64, 64, 3), dtype=np.uint8)
print("Popularity score:", round(predict(prepare_image(img), model_path), 3))
