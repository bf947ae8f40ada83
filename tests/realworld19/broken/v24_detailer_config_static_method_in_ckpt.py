"""Face-detailer segmentation checkpoint (Impact-Subpack-like): the trainer stores its config dict in the checkpoint, including the activation given as a reference to a static method of an Activations helper class; pickle protocol 2 writes that as getattr(Activations, 'silu'), and the subpack's torch.load with the default weights_only=True stops at GLOBAL getattr
source: https://github.com/ltdrdata/ComfyUI-Impact-Subpack/issues/36
reported-error: Weights only load failed ... WeightsUnpickler error: Unsupported global: GLOBAL getattr was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL getattr was not an allowed global by default. ... at line 56
root-cause: line 41
expect: DG011
"""
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- utils/activations.py
class Activations:
    @staticmethod
    def silu(x):
        return x * torch.sigmoid(x)

    @staticmethod
    def relu(x):
        return F.relu(x)


# ---- models/segm.py
class TinySegmenter(nn.Module):
    def __init__(self, act=Activations.relu, width=16):
        super().__init__()
        self.act = act
        self.enc1 = nn.Conv2d(3, width, 3, padding=1)
        self.enc2 = nn.Conv2d(width, width, 3, stride=2, padding=1)
        self.dec = nn.ConvTranspose2d(width, 1, 2, stride=2)

    def forward(self, x):
        return self.dec(self.act(self.enc2(self.act(self.enc1(x)))))


# ---- train.py
def train_and_save(buffer, steps=3):
    config = {"width": 16, "act": Activations.silu, "imgsz": 32}  # root-cause
    model = TinySegmenter(act=config["act"], width=config["width"])
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(steps):
        img = torch.rand(4, 3, 32, 32)
        mask = (img.mean(1, keepdim=True) > 0.5).float()
        loss = F.binary_cross_entropy_with_logits(model(img), mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"model": model.state_dict(), "config": config, "epoch": steps}, buffer)


# ---- subpack/core.py
def load_segm_model(buffer):
    ckpt = torch.load(buffer)  # fails-here
    cfg = ckpt["config"]
    model = TinySegmenter(act=cfg["act"], width=cfg["width"])
    model.load_state_dict(ckpt["model"])
    return model.eval()


if __name__ == "__main__":
    buf = io.BytesIO()
    train_and_save(buf)
    buf.seek(0)
    segm = load_segm_model(buf)
    with torch.no_grad():
        print("mask pixels", int((segm(torch.rand(1, 3, 32, 32)) > 0).sum()))
