"""Segmentation node (ComfyUI LayerStyle-style SAM-HQ loader) that restores GPU-written SAM-HQ weights with torch.load(path, map_location=...) where the location falls back to the CPU when CUDA is unavailable (the fix for Apple-silicon machines), then moves the model to the same device
source: https://github.com/chflame163/ComfyUI_LayerStyle_Advance/pull/21
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization as serialization


# ---- py/sam_hq/build_sam_hq.py
class SamHQ(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.image_encoder = nn.Sequential(nn.Conv2d(3, dim, 8, 8), nn.GELU(), nn.Conv2d(dim, dim, 1))
        self.mask_decoder = nn.Sequential(nn.Conv2d(dim + 2, dim, 3, padding=1), nn.ReLU(), nn.Conv2d(dim, 1, 1))

    def forward(self, image, point_map):
        feats = self.image_encoder(image)
        return self.mask_decoder(torch.cat([feats, point_map], 1))


def get_device():
    return "cuda" if torch.cuda.is_available() else "cpu"


def build_sam_hq(checkpoint=None):
    sam = SamHQ()
    device = get_device()
    if checkpoint is not None:
        with open(checkpoint, "rb") as f:
            state_dict = torch.load(f, map_location=device)
        info = sam.load_state_dict(state_dict, strict=False)
        print("loaded sam_hq:", info)
    return sam.to(device).eval(), device


# ---- the published checkpoint (written from a CUDA run)
def publish(path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(SamHQ().state_dict(), path)
    finally:
        serialization.location_tag = original


if __name__ == "__main__":
    torch.manual_seed(0)
    ckpt = os.path.join(tempfile.mkdtemp(), "sam_hq_vit_b.pth")
    publish(ckpt)
    sam, device = build_sam_hq(ckpt)
    image = torch.rand(1, 3, 64, 64, device=device)
    points = torch.zeros(1, 2, 8, 8, device=device)
    points[:, 0, 3, 4] = 1.0
    with torch.no_grad():
        print("mask logits", tuple(sam(image, points).shape))
