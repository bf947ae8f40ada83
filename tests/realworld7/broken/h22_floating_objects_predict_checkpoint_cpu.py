"""Marine-debris segmentation predictor: picks cuda when available, but restores the checkpoint (saved from a GPU run) with a bare torch.load before moving the model
source: https://github.com/ESA-PhiLab/floatingobjects/pull/5
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 31
root-cause: line 31
expect: DG010
"""
import os
import tempfile
from unittest import mock

import numpy as np
import torch
import torch.nn as nn


def get_model(modelname, inchannels=12, pretrained=False):
    if modelname != "unet":
        raise ValueError(modelname)
    return nn.Sequential(
        nn.Conv2d(inchannels, 16, 3, padding=1), nn.ReLU(),
        nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
        nn.Conv2d(16, 1, 1))


class PythonPredictor:
    def __init__(self, modelname, modelpath, image_size=(32, 32)):
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.image_size = image_size
        self.model = get_model(modelname, inchannels=12, pretrained=False)
        checkpoint = torch.load(modelpath)  # root-cause # fails-here
        self.model.load_state_dict(checkpoint["model_state_dict"])
        self.model = self.model.to(self.device).eval()

    def predict(self, image):
        x = torch.from_numpy(image.astype(np.float32) * 1e-4).unsqueeze(0).to(self.device)
        with torch.no_grad():
            return torch.sigmoid(self.model(x)).squeeze().cpu().numpy()


def write_checkpoint_from_gpu_run(path):
    """Written on the training server: every storage is tagged cuda:0, like a CUDA model's state_dict."""
    model = get_model("unet")
    with mock.patch.object(torch.serialization, "location_tag", lambda storage: "cuda:0"):
        torch.save({"model_state_dict": model.state_dict(), "epoch": 50}, path)


if __name__ == "__main__":
    snapshot_path = os.path.join(tempfile.mkdtemp(), "unet-posweight1-lr001-bs160-ep50-aug1-seed0.pth.tar")
    write_checkpoint_from_gpu_run(snapshot_path)
    predictor = PythonPredictor("unet", snapshot_path)
    scene = np.random.default_rng(0).integers(0, 10000, (12, 32, 32))
    prob = predictor.predict(scene)
    print("debris pixels:", int((prob > 0.5).sum()))
