"""Object detection inference (ultralytics/yolov3 detect.py of early 2020): --half converts the Darknet model to float16, but the image pre-processing always ends with img.float(), so the half model's first conv receives float32 images
source: https://github.com/ultralytics/yolov3/issues/1085
reported-error: Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same (running detect.py --half with yolov3.pt)
outcome: RuntimeError: expected scalar type Float but found Half at line 26
root-cause: line 52
expect: DG004
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
        return self.module_list(x)  # fails-here


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
        img = img.float()  # root-cause
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
