"""Semantic segmentation toolbox run on a CPU-only machine (SegmenTron layout): the model zoo restores TRAIN.PRETRAINED_MODEL_PATH, a checkpoint written on a GPU, with a bare torch.load, although the config says DEVICE='cpu'; the storages are tagged cuda:0 and cannot be deserialised without map_location
source: https://github.com/LikeLy-Journey/SegmenTron/issues/44
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location='cpu' to map your storages to the CPU. (fix in model_zoo.py: torch.load(cfg.TRAIN.PRETRAINED_MODEL_PATH, map_location=torch.device(cfg.DEVICE)))
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 40
root-cause: line 40
expect: DG010
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization as serialization


# ---- segmentron/config.py
class Node(dict):
    __getattr__ = dict.__getitem__


cfg = Node(DEVICE="cpu", MODEL=Node(NUM_CLASSES=4), TRAIN=Node(PRETRAINED_MODEL_PATH=os.path.join(tempfile.mkdtemp(), "deeplabv3_plus.pth")))


# ---- segmentron/models/deeplabv3_plus.py
class DeepLabV3Plus(nn.Module):
    def __init__(self, nclass):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(16, 32, 3, padding=2, dilation=2), nn.ReLU())
        self.head = nn.Conv2d(32, nclass, 1)

    def forward(self, x):
        out = self.head(self.encoder(x))
        return nn.functional.interpolate(out, size=x.shape[-2:], mode="bilinear", align_corners=False)


# ---- segmentron/models/model_zoo.py
def get_segmentation_model():
    model = DeepLabV3Plus(cfg.MODEL.NUM_CLASSES)
    if cfg.TRAIN.PRETRAINED_MODEL_PATH and os.path.exists(cfg.TRAIN.PRETRAINED_MODEL_PATH):
        state = torch.load(cfg.TRAIN.PRETRAINED_MODEL_PATH)  # root-cause  # fails-here
        model.load_state_dict(state)
    return model.to(torch.device(cfg.DEVICE))


# ---- tools/publish_gpu_checkpoint.py (stands in for the checkpoint trained on a GPU)
def write_gpu_checkpoint():
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(DeepLabV3Plus(cfg.MODEL.NUM_CLASSES).state_dict(), cfg.TRAIN.PRETRAINED_MODEL_PATH)
    finally:
        serialization.location_tag = original


# ---- tools/demo.py
if __name__ == "__main__":
    torch.manual_seed(0)
    write_gpu_checkpoint()
    model = get_segmentation_model().eval()
    with torch.no_grad():
        mask = model(torch.rand(1, 3, 64, 64)).argmax(1)
    print("predicted classes:", mask.unique().tolist())
