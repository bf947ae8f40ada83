"""Audio super-resolution wrapper that resolves its device once in __init__ and loads the GPU-saved generator checkpoint with torch.load(ckpt_path, map_location=self.device)
source: https://github.com/jakeoneijk/FlashSR_Inference/pull/3
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn
from torch import serialization


class Generator(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, ch, 9, padding=4), nn.PReLU(), nn.Conv1d(ch, 1, 9, padding=4))

    def forward(self, wav):
        return wav + self.net(wav)


def release_checkpoint_from_gpu_run(path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"generator": Generator().state_dict(), "sr": 48000}, path)
    finally:
        serialization.location_tag = original


class FlashSR:
    def __init__(self, ckpt_path, device=None):
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        ckpt = torch.load(ckpt_path, map_location=self.device)
        self.generator = Generator().to(self.device)
        self.generator.load_state_dict(ckpt["generator"])

    @torch.no_grad()
    def __call__(self, wav):
        return self.generator(wav.to(self.device))


path = os.path.join(tempfile.mkdtemp(), "flashsr_generator.pth")
release_checkpoint_from_gpu_run(path)
print("upsampled", tuple(FlashSR(path)(torch.randn(1, 1, 4800)).shape))
