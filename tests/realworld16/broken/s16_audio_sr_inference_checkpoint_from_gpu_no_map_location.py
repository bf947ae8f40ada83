"""Audio super-resolution inference wrapper: FlashSR.__init__ loads the released generator checkpoint (trained and saved on a GPU) with torch.load(ckpt_path) and no map_location, so a CPU-only user fails before inference starts
source: https://github.com/jakeoneijk/FlashSR_Inference/pull/3
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available () is False. If you are running on a CPU-only machine, please use torch.load with map_location = torch.device ('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 37
root-cause: line 37
expect: DG010
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
    def __init__(self, ckpt_path, device="cpu"):
        self.device = torch.device(device)
        ckpt = torch.load(ckpt_path)  # root-cause  # fails-here
        self.generator = Generator().to(self.device)
        self.generator.load_state_dict(ckpt["generator"])
        self.sr = ckpt["sr"]

    @torch.no_grad()
    def __call__(self, wav):
        return self.generator(wav.to(self.device))


path = os.path.join(tempfile.mkdtemp(), "flashsr_generator.pth")
release_checkpoint_from_gpu_run(path)
sr = FlashSR(path, device="cpu")
print("upsampled", tuple(sr(torch.randn(1, 1, 4800)).shape), "at", sr.sr)
