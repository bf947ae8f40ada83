"""Notebook cells (no main) doing CPU inference for a PatchCore-like anomaly model trained in Colab on a GPU: the Lightning-style checkpoint dict (cuda:0 storage tags) is read with torch.load(CKPT_PATH)["state_dict"] before any device is chosen
source: https://github.com/open-edge-platform/anomalib/issues/532
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 37
root-cause: line 37
expect: DG010
"""
import os
import tempfile

import torch
import torch.nn as nn
from torch import serialization


class FeatureExtractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AvgPool2d(4))
        self.register_buffer("memory_bank", torch.randn(50, 8))

    def forward(self, x):
        feats = self.layer(x).flatten(2).transpose(1, 2)
        return torch.cdist(feats, self.memory_bank[None]).min(-1).values.max(-1).values


# %% pretend Colab training run saved this
CKPT_PATH = os.path.join(tempfile.mkdtemp(), "model.ckpt")
_orig = serialization.location_tag
serialization.location_tag = lambda storage: "cuda:0"
torch.save({"epoch": 1, "global_step": 30, "state_dict": FeatureExtractor().state_dict(),
            "hyper_parameters": {"image_size": 64, "coreset_sampling_ratio": 0.1}}, CKPT_PATH)
serialization.location_tag = _orig

# %% inference on the laptop
model = FeatureExtractor()
state_dict = torch.load(CKPT_PATH)["state_dict"]  # root-cause # fails-here
model.load_state_dict(state_dict)
model.eval()

# %% score a few images
with torch.no_grad():
    scores = model(torch.rand(4, 3, 64, 64))
print("anomaly scores", scores.tolist())
