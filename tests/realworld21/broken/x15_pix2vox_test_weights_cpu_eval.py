"""Single-view 3D voxel reconstruction (Pix2Vox-style encoder/decoder/refiner): test_net() restores the GPU-trained checkpoint with torch.load(cfg.CONST.WEIGHTS) and no map_location, so evaluating the released weights on a CPU-only workstation fails at the load
source: https://github.com/hzxie/Pix2Vox/issues/116
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. (core/test.py line 77)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 40
root-cause: line 40
expect: DG010
"""
import os
import tempfile
from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.serialization as serialization


# ---- models/encoder.py, decoder.py
class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 4, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 4, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(2))

    def forward(self, img):
        return self.net(img).flatten(1)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(128, 16 * 4 ** 3)
        self.up = nn.Sequential(nn.ConvTranspose3d(16, 8, 4, 2, 1), nn.ReLU(), nn.ConvTranspose3d(8, 1, 4, 2, 1))

    def forward(self, feat):
        return torch.sigmoid(self.up(self.fc(feat).view(-1, 16, 4, 4, 4))).squeeze(1)


# ---- core/test.py
def test_net(cfg, test_images, gt_volumes):
    encoder, decoder = Encoder(), Decoder()
    checkpoint = torch.load(cfg.CONST.WEIGHTS)  # root-cause  # fails-here
    encoder.load_state_dict(checkpoint["encoder_state_dict"])
    decoder.load_state_dict(checkpoint["decoder_state_dict"])
    encoder.eval()
    decoder.eval()
    with torch.no_grad():
        volume = decoder(encoder(test_images))
        inter = ((volume > cfg.TEST.VOXEL_THRESH) & (gt_volumes > 0.5)).sum().item()
        union = ((volume > cfg.TEST.VOXEL_THRESH) | (gt_volumes > 0.5)).sum().item()
    return inter / max(union, 1)


def save_training_checkpoint(path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"epoch_idx": 250, "encoder_state_dict": Encoder().state_dict(), "decoder_state_dict": Decoder().state_dict()}, path)
    finally:
        serialization.location_tag = original


if __name__ == "__main__":
    torch.manual_seed(0)
    weights = os.path.join(tempfile.mkdtemp(), "Pix2Vox-A-ShapeNet.pth")
    save_training_checkpoint(weights)
    cfg = SimpleNamespace(CONST=SimpleNamespace(WEIGHTS=weights), TEST=SimpleNamespace(VOXEL_THRESH=0.3))
    iou = test_net(cfg, torch.rand(2, 3, 32, 32), (torch.rand(2, 16, 16, 16) > 0.7).float())
    print(f"IoU {iou:.3f}")
