"""CycleGAN voice-conversion trainer resuming on a laptop: Trainer.load_checkpoint() calls torch.load(path) without map_location on a checkpoint saved from cuda:0, then renames "module."-prefixed keys of the DataParallel generators and loads with strict=False
source: https://github.com/onejiin/CycleGAN-VC2/issues/7
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 41
root-cause: line 41
expect: DG010
"""
import os
import tempfile

import torch
import torch.nn as nn
from torch import serialization


class GatedConv1d(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv = nn.Conv1d(ch, 2 * ch, 5, padding=2)

    def forward(self, x):
        a, b = self.conv(x).chunk(2, 1)
        return x + a * torch.sigmoid(b)


class Generator(nn.Module):
    def __init__(self, n_mcep=24, ch=32):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(n_mcep, ch, 1), GatedConv1d(ch), GatedConv1d(ch), nn.Conv1d(ch, n_mcep, 1))

    def forward(self, x):
        return self.net(x)


class Trainer:
    def __init__(self):
        self.G_A2B, self.G_B2A = Generator(), Generator()
        self.epoch = 0

    def load_checkpoint(self, path):
        ckpt = torch.load(path)  # root-cause  # fails-here
        for name in ("G_A2B", "G_B2A"):
            state = {k.replace("module.", "", 1): v for k, v in ckpt[name].items()}
            missing, unexpected = getattr(self, name).load_state_dict(state, strict=False)
            print(name, "missing", len(missing), "unexpected", len(unexpected))
        self.epoch = ckpt["epoch"]

    def convert(self, mcep):
        with torch.no_grad():
            return self.G_A2B(mcep)


def write_gpu_checkpoint(path):
    gens = {n: nn.DataParallel(Generator()) for n in ("G_A2B", "G_B2A")}
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({**{n: g.state_dict() for n, g in gens.items()}, "epoch": 120}, path)
    finally:
        serialization.location_tag = original


path = os.path.join(tempfile.mkdtemp(), "_CycleGAN_CheckPoint")
write_gpu_checkpoint(path)
trainer = Trainer()
trainer.load_checkpoint(path)
print("converted", trainer.convert(torch.randn(1, 24, 128)).shape, "epoch", trainer.epoch)
