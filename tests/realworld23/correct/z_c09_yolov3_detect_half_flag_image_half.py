"""Object detection inference with --half whose pre-processing casts the uint8 frame with img.half() if half else img.float(), so the float16 Darknet and its input agree
source: https://github.com/ultralytics/yolov3/issues/1085
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse

import numpy as np
import torch
import torch.nn as nn


# ---- models.py
class Darknet(nn.Module):
    def __init__(self, nc=4):
        super().__init__()
        self.module_list = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.LeakyReLU(0.1),
            nn.Conv2d(8, 16, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(16), nn.LeakyReLU(0.1),
            nn.Conv2d(16, 3 * (5 + nc), 1),
        )

    def forward(self, x):
        return self.module_list(x)


# ---- utils/datasets.py
class LoadImages:
    def __init__(self, n=2, img_size=32, seed=0):
        rng = np.random.default_rng(seed)
        self.frames = [rng.integers(0, 256, (img_size, img_size, 3), dtype=np.uint8) for _ in range(n)]

    def __iter__(self):
        for i, img0 in enumerate(self.frames):
            img = img0[:, :, ::-1].transpose(2, 0, 1)
            yield f"frame{i}.jpg", np.ascontiguousarray(img), img0


# ---- detect.py
def detect(opt):
    device = torch.device("cpu")
    model = Darknet()
    model.to(device).eval()
    half = opt.half
    if half:
        model.half()
    dataset = LoadImages()
    for path, img, im0s in dataset:
        img = torch.from_numpy(img).to(device)
        img = img.half() if half else img.float()
        img /= 255.0
        if img.ndimension() == 3:
            img = img.unsqueeze(0)
        with torch.no_grad():
            pred = model(img)
        print(path, "max objectness", pred.float().sigmoid().max().item())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--half", action="store_true", default=True, help="half precision FP16 inference")
    torch.manual_seed(0)
    detect(parser.parse_args([]))
