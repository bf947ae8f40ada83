"""YOLO-style 3D detector loss (yolov7_3d): the objectness target is filled from a NumPy IoU (float64) and the objectness branch uses nn.BCELoss on sigmoid outputs, inside an AMP training step
source: https://github.com/Rickyyy-zh/yolov7_3d/issues/8
reported-error: RuntimeError: Found dtype Double but expected Float (at scaler.scale(loss).backward on torch 1.8; sub-losses printed as float32)
outcome: RuntimeError: Found dtype Double but expected Float at line 36
root-cause: line 35
expect: DG008
"""
import argparse

import numpy as np
import torch
import torch.nn as nn


def box_iou_np(b1, b2):
    lt = np.maximum(b1[:, :2], b2[:, :2])
    rb = np.minimum(b1[:, 2:], b2[:, 2:])
    inter = np.clip(rb - lt, 0, None).prod(1)
    a1 = (b1[:, 2:] - b1[:, :2]).prod(1)
    a2 = (b2[:, 2:] - b2[:, :2]).prod(1)
    return inter / (a1 + a2 - inter + 1e-9)


class ComputeLoss:
    def __init__(self, model, hyp):
        self.BCEobj = nn.BCELoss()
        self.depth_loss = nn.SmoothL1Loss()
        self.hyp = hyp
        self.na = model.na

    def __call__(self, p, targets):
        pobj, pbox, pdepth = p
        tobj = torch.zeros_like(pobj)
        iou = box_iou_np(pbox.detach().numpy().reshape(-1, 4), targets["boxes"].reshape(-1, 4))
        tobj = torch.from_numpy(iou.reshape(pobj.shape)).clamp(0)  # root-cause
        lobj = self.BCEobj(torch.sigmoid(pobj), tobj) * self.hyp["obj"]  # fails-here
        ldepth = self.depth_loss(pdepth, torch.as_tensor(targets["depth"], dtype=torch.float32)) * self.hyp["depth"]
        loss = lobj + ldepth
        return loss, torch.stack((lobj, ldepth)).detach()


class Model(nn.Module):
    def __init__(self, na=3):
        super().__init__()
        self.na = na
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=4, padding=1), nn.SiLU(), nn.AdaptiveAvgPool2d(4))
        self.head = nn.Conv2d(16, na * 6, 1)

    def forward(self, x):
        out = self.head(self.backbone(x)).view(x.shape[0], self.na, 6, 4, 4).permute(0, 1, 3, 4, 2)
        pbox = torch.cat([out[..., :2].sigmoid() * 0.5, 0.5 + out[..., 2:4].sigmoid() * 0.5], -1)
        return out[..., 4], pbox, out[..., 5]


def train(hyp, opt):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Model().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=hyp["lr0"], momentum=0.937)
    scaler = torch.amp.GradScaler(device.type, enabled=device.type == "cuda")
    compute_loss = ComputeLoss(model, hyp)
    rng = np.random.default_rng(0)
    for i in range(opt.iters):
        imgs = torch.rand(opt.batch_size, 3, 64, 64, device=device)
        targets = {"boxes": np.sort(rng.random((opt.batch_size, 3, 4, 4, 2, 2)), axis=-2).reshape(-1, 4),
                   "depth": rng.random((opt.batch_size, 3, 4, 4)) * 50}
        with torch.autocast(device.type, enabled=device.type == "cuda"):
            pred = model(imgs)
        loss, loss_items = compute_loss([t.float().cpu() for t in pred], targets)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print(i, loss_items.tolist())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=2)
    parser.add_argument("--iters", type=int, default=2)
    train({"lr0": 0.01, "obj": 1.0, "depth": 0.05}, parser.parse_args())
