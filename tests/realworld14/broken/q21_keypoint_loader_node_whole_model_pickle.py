"""Body-keypoint model loader node: the exporter saves the whole nn.Module with torch.save(model, path) (pickling the __main__.KeypointNet class), and the loader node's load() relies on the torch.load default weights_only=True
source: https://github.com/Comfy-Org/ComfyUI/issues/7425
reported-error: Weights only load failed ... WeightsUnpickler error: Unsupported global: GLOBAL ultralytics.nn.tasks.DetectionModel was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.KeypointNet was not an allowed global by default. ... at line 39
root-cause: line 29
expect: DG011
"""
import os
import tempfile

import torch
import torch.nn as nn


class KeypointNet(nn.Module):
    def __init__(self, n_kpts=17):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
                                      nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())
        self.heatmaps = nn.Conv2d(32, n_kpts, 1)

    def forward(self, x):
        return self.heatmaps(self.backbone(x))


class ModelExporter:
    @staticmethod
    def export(model, path):
        torch.save(model, path)  # root-cause


class LoaderNode:
    RETURN_TYPES = ("KEYPOINT_MODEL",)

    def __init__(self, models_dir):
        self.models_dir = models_dir

    def load(self, name, device="cpu"):
        model = torch.load(os.path.join(self.models_dir, name), map_location=device)  # fails-here
        return (model.eval(),)


models_dir = tempfile.mkdtemp()
ModelExporter.export(KeypointNet(), os.path.join(models_dir, "sapiens_kpt_0.3b.pt"))
(model,) = LoaderNode(models_dir).load("sapiens_kpt_0.3b.pt")
with torch.no_grad():
    hm = model(torch.rand(1, 3, 64, 64))
print("heatmaps", tuple(hm.shape))
