"""Deforum-style local diffusion runner: load_model_from_config(config, ckpt) reads a Lightning checkpoint trained on a GPU with torch.load(ckpt) and only afterwards picks the device, so a CPU-only machine cannot deserialise the CUDA storages
source: https://github.com/HelixNGC7293/DeforumStableDiffusionLocal/issues/66
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


class TinyUNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.down = nn.Conv2d(4, ch, 3, padding=1)
        self.up = nn.Conv2d(ch, 4, 3, padding=1)

    def forward(self, latents, t):
        return self.up(torch.relu(self.down(latents))) * (1 - t)


def instantiate_from_config(config):
    return TinyUNet(**config["params"])


def write_gpu_checkpoint(model, path, global_step):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"state_dict": model.state_dict(), "global_step": global_step}, path)
    finally:
        serialization.location_tag = original


def load_model_from_config(config, ckpt, verbose=False):
    print(f"Loading model from {ckpt}")
    pl_sd = torch.load(ckpt)  # root-cause  # fails-here
    if "global_step" in pl_sd and verbose:
        print(f"Global Step: {pl_sd['global_step']}")
    sd = pl_sd["state_dict"]
    model = instantiate_from_config(config)
    m, u = model.load_state_dict(sd, strict=False)
    return model


config = {"params": {"ch": 8}}
ckpt = os.path.join(tempfile.mkdtemp(), "sd-v1-4.ckpt")
write_gpu_checkpoint(TinyUNet(), ckpt, 470000)
model = load_model_from_config(config, ckpt, verbose=True)
device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
model = model.to(device).eval()
with torch.no_grad():
    print(model(torch.randn(1, 4, 8, 8, device=device), 0.5).shape)
