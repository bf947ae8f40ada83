"""Talking-head video generation run with --cpu (xtalker/SadTalker preprocessing): CropAndExtract builds the keypoint extractor, whose facexlib-style init_alignment_model restores the awing_fan weights, saved from a GPU, with a bare torch.load although the device passed down is cpu
source: https://github.com/Spycsh/xtalker/issues/7
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False ... (model.load_state_dict(torch.load(model_path)['state_dict'], strict=True) in facexlib/alignment/__init__.py, run with --cpu --bf16)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 33
root-cause: line 33
expect: DG010
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
    model.load_state_dict(torch.load(model_path)["state_dict"], strict=True)  # root-cause  # fails-here
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
