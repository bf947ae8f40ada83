"""Real-time talking-head demo (DH_live-style RenderModel) on a CPU-only machine: the GPU-trained renderer checkpoint is loaded with map_location=device, so its CUDA storages are remapped to the CPU
source: https://github.com/kleinlee/DH_live/issues/22
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch import serialization

CKPT_DIR = tempfile.mkdtemp()
device = "cuda" if torch.cuda.is_available() else "cpu"


# ---- talkingface/models/DINet.py
class DINetFiveRef(nn.Module):
    def __init__(self, source_channel=3, ref_channel=15, ch=16):
        super().__init__()
        self.source_enc = nn.Sequential(nn.Conv2d(source_channel, ch, 3, padding=1), nn.ReLU())
        self.ref_enc = nn.Sequential(nn.Conv2d(ref_channel, ch, 3, padding=1), nn.ReLU())
        self.decoder = nn.Sequential(nn.Conv2d(2 * ch, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, 3, 1), nn.Sigmoid())

    def forward(self, source_img, ref_img):
        feat = torch.cat([self.source_enc(source_img), self.ref_enc(ref_img)], dim=1)
        return self.decoder(feat)


# ---- talkingface/render_model.py
class RenderModel:
    def __init__(self):
        self.__net = None
        self.ref_tensor = None

    def loadModel(self, ckpt_path):
        self.__net = DINetFiveRef(source_channel=3, ref_channel=15).to(device)
        checkpoint = torch.load(ckpt_path, map_location=device)
        self.__net.load_state_dict(checkpoint["state_dict"]["net_g"])
        self.__net.eval()

    def reset_charactor(self, ref_frames):
        ref = np.concatenate(ref_frames, axis=2).astype(np.float32) / 255.0
        self.ref_tensor = torch.from_numpy(ref).permute(2, 0, 1).unsqueeze(0).to(device)

    def interface(self, mouth_frame):
        src = torch.from_numpy(mouth_frame.astype(np.float32) / 255.0).permute(2, 0, 1).unsqueeze(0).to(device)
        with torch.no_grad():
            out = self.__net(src, self.ref_tensor)
        return (out[0].permute(1, 2, 0).cpu().numpy() * 255).astype(np.uint8)


def publish_gpu_checkpoint(path):
    """The released render.pth came from a CUDA training run."""
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"state_dict": {"net_g": DINetFiveRef().state_dict()}, "epoch": 120}, path)
    finally:
        serialization.location_tag = original


if __name__ == "__main__":
    ckpt = os.path.join(CKPT_DIR, "render.pth")
    publish_gpu_checkpoint(ckpt)
    renderModel = RenderModel()
    renderModel.loadModel(ckpt)
    rng = np.random.default_rng(0)
    renderModel.reset_charactor([rng.integers(0, 255, (32, 32, 3), dtype=np.uint8) for _ in range(5)])
    for i in range(4):
        frame = renderModel.interface(rng.integers(0, 255, (32, 32, 3), dtype=np.uint8))
        print("frame", i, frame.shape, frame.dtype)
