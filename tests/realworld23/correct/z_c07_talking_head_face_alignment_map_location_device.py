"""Talking-head preprocessing run with --cpu whose init_alignment_model restores the GPU-saved awing_fan weights with torch.load(model_path, map_location=device), so the CUDA-tagged storages land on the CPU
source: https://github.com/Spycsh/xtalker/issues/7
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization as serialization

ROOT = tempfile.mkdtemp()


# ---- facexlib/alignment/awing_arch.py
class FAN(nn.Module):
    def __init__(self, num_landmarks=8):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(16, num_landmarks, 3, padding=1))

    def forward(self, x):
        return self.body(x)


# ---- facexlib/alignment/__init__.py
def init_alignment_model(model_name, device="cuda", model_rootpath=None):
    model = FAN(num_landmarks=8)
    model_path = os.path.join(model_rootpath, f"alignment_{model_name}.pth")
    model.load_state_dict(torch.load(model_path, map_location=device)["state_dict"], strict=True)
    return model.eval().to(device)


# ---- src/face3d/extract_kp_videos_safe.py
class KeypointExtractor:
    def __init__(self, device="cuda"):
        self.detector = init_alignment_model("awing_fan", device=device, model_rootpath=ROOT)

    def extract_keypoint(self, images):
        with torch.no_grad():
            heat = self.detector(images)
        idx = heat.flatten(2).argmax(-1)
        return torch.stack([idx % heat.shape[-1], idx // heat.shape[-1]], -1)


# ---- src/utils/preprocess.py
class CropAndExtract:
    def __init__(self, device):
        self.propress = KeypointExtractor(device)


# ---- scripts/download_models.sh (stands in for the released GPU checkpoint)
def publish_gpu_weights():
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"state_dict": FAN(8).state_dict()}, os.path.join(ROOT, "alignment_awing_fan.pth"))
    finally:
        serialization.location_tag = original


def main(args):
    device = "cpu" if args.cpu or not torch.cuda.is_available() else "cuda"
    preprocess_model = CropAndExtract(device)
    kp = preprocess_model.propress.extract_keypoint(torch.rand(1, 3, 32, 32, device=device))
    print("landmarks", kp.shape)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cpu", action="store_true", default=True)
    parser.add_argument("--bf16", action="store_true", default=True)
    torch.manual_seed(0)
    publish_gpu_weights()
    main(parser.parse_args([]))
