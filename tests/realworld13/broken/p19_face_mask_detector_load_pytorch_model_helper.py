"""Face-mask detector inference script: load_pytorch_model() in a loader module wraps torch.load(model_path) without map_location; the new_model.pth was trained on a GPU (simulated with cuda:0 storage tags) and the demo runs on a CPU-only machine
source: https://github.com/AIZOOTech/FaceMaskDetection/issues/41
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 24
root-cause: line 24
expect: DG010
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch import serialization


def build_detector():
    return nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
                         nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
                         nn.Conv2d(32, 6, 1))  # 4 box offsets + 2 class scores per cell


def load_pytorch_model(model_path):
    state = torch.load(model_path)  # root-cause # fails-here
    model = build_detector()
    model.load_state_dict(state)
    return model.eval()


def pytorch_inference(model, img_arr):
    x = torch.from_numpy(img_arr.astype(np.float32) / 255.0).permute(2, 0, 1)[None]
    with torch.no_grad():
        out = model(x)
    bbox, cls = out[:, :4], out[:, 4:].softmax(1)
    return bbox, cls


def write_gpu_trained(path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(build_detector().state_dict(), path)
    finally:
        serialization.location_tag = original


if __name__ == "__main__":
    model_path = os.path.join(tempfile.mkdtemp(), "new_model.pth")
    write_gpu_trained(model_path)
    model = load_pytorch_model(model_path)
    image = np.random.default_rng(0).integers(0, 256, (64, 64, 3), dtype=np.uint8)
    bbox, cls = pytorch_inference(model, image)
    print("masked faces", int((cls[:, 1] > 0.5).sum()))
