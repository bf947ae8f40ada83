"""YOLO-style detector training loop (yolov5 train.py / experimental.attempt_load layout): every epoch the checkpoint dict stores the whole de-paralleled model (deepcopy(model).half()) instead of its state_dict, and the detection script's attempt_load reads it back with torch.load's default weights_only=True
source: https://hackmd.io/@yupooooo/By6vkqC01e
reported-error: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL models.yolo.Model was not an allowed global by default. (torch.load of a yolov5 .pt with PyTorch >= 2.6)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.Model was not an allowed global by default. ... at line 66
root-cause: line 57
expect: DG011
"""
import os
import tempfile
from copy import deepcopy

import torch
import torch.nn as nn


# ---- models/yolo.py
class Detect(nn.Module):
    def __init__(self, nc=3, na=3, ch=32):
        super().__init__()
        self.no = nc + 5
        self.m = nn.Conv2d(ch, na * self.no, 1)

    def forward(self, x):
        return self.m(x)


class Model(nn.Module):
    def __init__(self, nc=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.SiLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.SiLU())
        self.detect = Detect(nc=nc)
        self.names = [f"class{i}" for i in range(nc)]

    def forward(self, x):
        return self.detect(self.backbone(x))


# ---- utils/torch_utils.py
def de_parallel(model):
    return model.module if isinstance(model, (nn.DataParallel, nn.parallel.DistributedDataParallel)) else model


# ---- train.py
def train(hyp, save_dir, epochs=2):
    model = Model(nc=3)
    optimizer = torch.optim.SGD(model.parameters(), lr=hyp["lr0"], momentum=hyp["momentum"])
    last = os.path.join(save_dir, "last.pt")
    for epoch in range(epochs):
        imgs = torch.rand(4, 3, 64, 64)
        loss = model(imgs).sigmoid().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ckpt = {
            "epoch": epoch,
            "best_fitness": float(loss.item()),
            "model": deepcopy(de_parallel(model)).half(),  # root-cause
            "optimizer": optimizer.state_dict(),
        }
        torch.save(ckpt, last)
    return last


# ---- models/experimental.py
def attempt_load(weights, device="cpu"):
    ckpt = torch.load(weights, map_location="cpu")  # fails-here
    model = ckpt["model"].to(device).float()
    return model.eval()


# ---- detect.py
def run(weights, source_batch):
    model = attempt_load(weights)
    with torch.no_grad():
        pred = model(source_batch)
    return pred.shape


if __name__ == "__main__":
    torch.manual_seed(0)
    weights = train({"lr0": 0.01, "momentum": 0.937}, tempfile.mkdtemp())
    print("predictions", run(weights, torch.rand(1, 3, 64, 64)))
