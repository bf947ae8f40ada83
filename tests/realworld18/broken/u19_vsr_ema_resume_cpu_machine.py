"""Video super-resolution trainer with EMA weights: resume_from() reads the last checkpoint written on the GPU box with a bare torch.load(path) and then copies the generator, EMA generator and optimizer states; on the CPU-only laptop the load fails
source: https://github.com/ckkelvinchan/BasicVSR_PlusPlus/issues/38
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 60
root-cause: line 60
expect: DG010
"""
import copy
import os
import tempfile

import torch
import torch.nn as nn
from torch import serialization


class TinyVSR(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(9, c, 3, padding=1), nn.ReLU(), nn.Conv2d(c, 3 * 4, 3, padding=1))
        self.shuffle = nn.PixelShuffle(2)

    def forward(self, frames):
        b, t, c, h, w = frames.shape
        return self.shuffle(self.body(frames.reshape(b, t * c, h, w)))


class EMA:
    def __init__(self, model, decay=0.999):
        self.model = copy.deepcopy(model).eval()
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for e, p in zip(self.model.parameters(), model.parameters()):
            e.mul_(self.decay).add_(p, alpha=1 - self.decay)


def write_gpu_checkpoint(path):
    """Stand-in for the checkpoint written by the CUDA training run (storages tagged cuda:0)."""
    net = TinyVSR()
    opt = torch.optim.Adam(net.parameters(), lr=2e-4)
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"iter": 5000, "generator": net.state_dict(), "generator_ema": net.state_dict(),
                    "optimizer": opt.state_dict()}, path)
    finally:
        serialization.location_tag = original


class Runner:
    def __init__(self):
        self.net = TinyVSR()
        self.ema = EMA(self.net)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=2e-4)
        self.start_iter = 0

    def resume_from(self, path):
        state = torch.load(path)  # root-cause  # fails-here
        self.net.load_state_dict(state["generator"])
        self.ema.model.load_state_dict(state["generator_ema"])
        self.opt.load_state_dict(state["optimizer"])
        self.start_iter = state["iter"]


ckpt = os.path.join(tempfile.mkdtemp(), "iter_5000.pth")
write_gpu_checkpoint(ckpt)
runner = Runner()
runner.resume_from(ckpt)
lq = torch.rand(2, 3, 3, 16, 16)
print("resumed at", runner.start_iter, tuple(runner.ema.model(lq).shape))
