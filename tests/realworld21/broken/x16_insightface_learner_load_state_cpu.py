"""Face verification with an ArcFace-style learner (InsightFace_Pytorch layout): the config sets device to cpu and face_verify.py calls learner.load_state(conf, 'cpu_final.pth', ...), but load_state() restores the GPU-saved backbone with torch.load(save_path/...) and never uses conf.device
source: https://github.com/TreB1eN/InsightFace_Pytorch/issues/113
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location='cpu' to map your storages to the CPU. (Learner.py line 82, load_state)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 42
root-cause: line 42
expect: DG010
"""
import tempfile
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.serialization as serialization


# ---- config.py
def get_config():
    work = Path(tempfile.mkdtemp())
    return {"model_path": work / "models", "save_path": work / "save", "embedding_size": 64, "device": torch.device("cpu"), "threshold": 1.5}


# ---- model.py
class Backbone(nn.Module):
    def __init__(self, embedding_size=64):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.PReLU(16), nn.Conv2d(16, 32, 3, 2, 1), nn.PReLU(32), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.out = nn.Linear(32, embedding_size)

    def forward(self, x):
        return F.normalize(self.out(self.body(x)))


# ---- Learner.py
class face_learner:
    def __init__(self, conf):
        self.model = Backbone(conf["embedding_size"]).to(conf["device"])
        self.threshold = conf["threshold"]

    def load_state(self, conf, fixed_str, from_save_folder=False, model_only=False):
        save_path = conf["save_path"] if from_save_folder else conf["model_path"]
        self.model.load_state_dict(torch.load(save_path / "model_{}".format(fixed_str)))  # root-cause  # fails-here

    def infer(self, conf, faces, target_embs):
        with torch.no_grad():
            source_embs = self.model(faces.to(conf["device"]))
        dist = torch.cdist(source_embs, target_embs).pow(2)
        minimum, min_idx = dist.min(dim=1)
        min_idx[minimum > self.threshold] = -1
        return min_idx, minimum


def export_trained_model(conf, fixed_str):
    conf["model_path"].mkdir(parents=True, exist_ok=True)
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(Backbone(conf["embedding_size"]).state_dict(), conf["model_path"] / f"model_{fixed_str}")
    finally:
        serialization.location_tag = original


if __name__ == "__main__":
    torch.manual_seed(0)
    conf = get_config()
    export_trained_model(conf, "cpu_final.pth")
    learner = face_learner(conf)
    learner.load_state(conf, "cpu_final.pth", False, True)
    learner.model.eval()
    facebank = learner.model(torch.rand(3, 3, 56, 56)).detach()
    print(learner.infer(conf, torch.rand(2, 3, 56, 56), facebank))
