"""The YOLOv5-style train -> detect run of bf01 (ultralytics/yolov5 #101) with the fix of commit 76ca367 ("FP16 to FP32 ckpt load"): detect.py loads ckpt['model'].float(), so the FP16 model that strip_optimizer() wrote is run in float32 on the CPU and the float32 images match it; the FP16 final checkpoint, the whole pickled EMA model read back with weights_only=False and the uint8 -> float image conversion are kept
source: https://github.com/ultralytics/yolov5/issues/101
reported-error: (none filed; the fixed situation of bf01)
outcome: ok
root-cause: -
expect: none
"""
import math
import os
import tempfile
from copy import deepcopy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
WORK = tempfile.mkdtemp()


class Conv(nn.Module):
    # Standard convolution
    def __init__(self, c1, c2, k=1, s=1, act=True):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c2)
        self.act = nn.LeakyReLU(0.1, inplace=True) if act else nn.Identity()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class Focus(nn.Module):
    # Focus wh information into c-space
    def __init__(self, c1, c2, k=1):
        super().__init__()
        self.conv = Conv(c1 * 4, c2, k, 1)

    def forward(self, x):
        return self.conv(torch.cat([x[..., ::2, ::2], x[..., 1::2, ::2], x[..., ::2, 1::2], x[..., 1::2, 1::2]], 1))


class Model(nn.Module):
    def __init__(self, nc=2, na=3):
        super().__init__()
        self.nc, self.na, self.no = nc, na, nc + 5
        self.backbone = nn.Sequential(Focus(3, 16, 3), Conv(16, 32, 3, 2), Conv(32, 32, 3, 1))
        self.detect = nn.Conv2d(32, self.no * na, 1)
        self.names = ["person", "helmet"]

    def forward(self, x, augment=False):
        p = self.detect(self.backbone(x))
        bs, _, ny, nx = p.shape
        p = p.view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
        return p.sigmoid().view(bs, -1, self.no), p


class ModelEMA:
    def __init__(self, model, decay=0.9999):
        self.ema = deepcopy(model)
        self.ema.eval()
        self.updates = 0
        self.decay = lambda x: decay * (1 - math.exp(-x / 2000))
        for p in self.ema.parameters():
            p.requires_grad_(False)

    def update(self, model):
        self.updates += 1
        d = self.decay(self.updates)
        with torch.no_grad():
            msd, esd = model.state_dict(), self.ema.state_dict()
            for k, v in esd.items():
                if v.dtype.is_floating_point:
                    v *= d
                    v += (1. - d) * msd[k].detach()


def strip_optimizer(f):
    # Strip optimizer from *.pt files for lighter files (reduced by 1/2 size)
    x = torch.load(f, map_location=torch.device("cpu"), weights_only=False)
    x["optimizer"] = None
    x["model"].half()  # to FP16
    torch.save(x, f)


# --- train.py on the Colab GPU ---
imgs = torch.randint(0, 256, (64, 3, 64, 64), dtype=torch.uint8)
targets = torch.rand(64, 3 * 16 * 16, 7)
model = Model()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937, nesterov=True)
ema = ModelEMA(model)
last = os.path.join(WORK, "last.pt")
for epoch in range(3):
    for i in range(0, 64, 16):
        batch = imgs[i:i + 16].float() / 255.0  # uint8 to float32, 0 - 255 to 0.0 - 1.0
        pred, _ = model(batch)
        loss = F.mse_loss(pred, targets[i:i + 16])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ema.update(model)
    ckpt = {"epoch": epoch, "best_fitness": 0.0, "training_results": f"{epoch} {loss.item():.4f}\n",
            "model": ema.ema, "optimizer": optimizer.state_dict()}
    torch.save(ckpt, last)
    print(f"epoch {epoch} loss {loss.item():.4f}")
strip_optimizer(last)  # final checkpoints are saved in FP16


# --- detect.py --weights weights/last.pt --device cpu on the desktop ---
def detect(weights, device):
    half = device.type != "cpu"  # half precision only supported on CUDA
    model = torch.load(weights, map_location=device, weights_only=False)["model"].float()  # load to FP32
    model.to(device).eval()
    if half:
        model.half()  # to FP16
    names = model.names
    source = [np.random.randint(0, 256, (3, 64, 64), dtype=np.uint8) for _ in range(4)]
    for img in source:
        img = torch.from_numpy(img).to(device)
        img = img.half() if half else img.float()  # uint8 to fp16/32
        img /= 255.0  # 0 - 255 to 0.0 - 1.0
        if img.ndimension() == 3:
            img = img.unsqueeze(0)
        pred = model(img, augment=False)[0]
        conf = pred[..., 4] * pred[..., 5:].max(-1).values
        print(f"{(conf > 0.4).sum().item()} detections, best class {names[int(pred[0, conf[0].argmax(), 5:].argmax())]}")


detect(last, torch.device("cpu"))
