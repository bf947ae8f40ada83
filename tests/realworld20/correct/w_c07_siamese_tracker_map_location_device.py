"""Siamese tracker that restores the GPU-trained backbone with torch.load(model_path, map_location=self.device), the device chosen from args, so the cuda:0 checkpoint loads on a CPU-only laptop
source: https://github.com/xl-sr/THOR/issues/5
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
import torch.serialization as serialization


# ---- trackers/backbone.py
class SiamBackbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 5, stride=2), nn.ReLU(), nn.Conv2d(16, 32, 3), nn.ReLU())

    def forward(self, x):
        return self.features(x)


# ---- trackers/tracker.py
class THORTracker:
    def __init__(self, model_path, device):
        self.device = torch.device(device)
        self.model = SiamBackbone()
        self.load_param(model_path)
        self.model.to(self.device).eval()
        self.templates = []

    def load_param(self, model_path):
        param_dict = torch.load(model_path, map_location=self.device)
        self.model.load_state_dict(param_dict)

    def init(self, frame, box):
        x, y, w, h = box
        self.templates.append(self.model(frame[:, :, y:y + h, x:x + w].to(self.device)))

    def track(self, frame):
        with torch.no_grad():
            search = self.model(frame.to(self.device))
            score = nn.functional.conv2d(search, self.templates[-1])
        return divmod(int(score.flatten().argmax()), score.shape[-1])


def export_from_gpu_box(path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(SiamBackbone().state_dict(), path)
    finally:
        serialization.location_tag = original


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cpu")
    args = p.parse_args([])
    path = os.path.join(tempfile.mkdtemp(), "SiamRPN_BIG.model")
    export_from_gpu_box(path)
    tracker = THORTracker(path, args.device)
    frame = torch.rand(1, 3, 96, 96)
    with torch.no_grad():
        tracker.init(frame, (30, 30, 24, 24))
    print("peak", tracker.track(frame))
