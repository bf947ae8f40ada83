"""Multi-object tracking evaluation (Deep-OC-SORT layout) on a CPU-only machine: the appearance embedder's helper loads the ReID weights file that was trained on a GPU; the loader passes map_location only when a device string is given, and main() never gives one
source: https://github.com/GerardMaggiolino/Deep-OC-SORT/issues/8
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. (python3 main.py --exp_name $exp --post --emb_off ...; "I thought a CPU was sufficient")
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 29
root-cause: line 55
expect: DG010
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization as serialization


# ---- external/fast_reid/model.py
class ReIDNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.bottleneck = nn.BatchNorm1d(16)

    def forward(self, crops):
        return nn.functional.normalize(self.bottleneck(self.body(crops)), dim=1)


def load_weights(path, device=None):
    kwargs = {"map_location": device} if device is not None else {}
    return torch.load(path, **kwargs)  # fails-here


# ---- trackers/embedding.py
class EmbeddingComputer:
    def __init__(self, weights_path, device=None):
        self.model = ReIDNet()
        self.model.load_state_dict(load_weights(weights_path, device))
        self.model.eval()

    def compute_embedding(self, img, bboxes):
        crops = torch.stack([img[:, y0:y1, x0:x1][:, :32, :16] for x0, y0, x1, y1 in bboxes])
        with torch.no_grad():
            return self.model(crops)


def publish_gpu_weights(path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(ReIDNet().state_dict(), path)
    finally:
        serialization.location_tag = original


def main(args):
    embedder = EmbeddingComputer(args["reid_weights"])  # root-cause
    frame = torch.rand(3, 120, 160)
    emb = embedder.compute_embedding(frame, [(10, 10, 40, 80), (60, 20, 90, 90)])
    print("embeddings", tuple(emb.shape))


if __name__ == "__main__":
    torch.manual_seed(0)
    path = os.path.join(tempfile.mkdtemp(), "mot17_sbs_S50.pth")
    publish_gpu_weights(path)
    main({"exp_name": "demo", "dataset": "mot17", "reid_weights": path})
