"""Human-pose estimation demo (HRNet demo/inference.py layout) run on a laptop without CUDA: the pose model is restored from cfg.TEST.MODEL_FILE, a checkpoint written on a GPU, with a bare torch.load, so its cuda:0-tagged storages cannot be deserialised
source: https://github.com/leoxiaobin/deep-high-resolution-net.pytorch/pull/188
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. (when running the demo on a MacBook Pro)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 32
root-cause: line 32
expect: DG010
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization as serialization


# ---- lib/models/pose_hrnet.py
class PoseHighResolutionNet(nn.Module):
    def __init__(self, num_joints=17):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.final_layer = nn.Conv2d(16, num_joints, 1)

    def forward(self, x):
        return self.final_layer(self.stem(x))


def get_pose_net(args):
    model = PoseHighResolutionNet()
    if args.model_file:
        print("=> loading model from", args.model_file)
        model.load_state_dict(torch.load(args.model_file), strict=False)  # root-cause  # fails-here
    return model


# ---- tools: the checkpoint published from a GPU training run
def publish_gpu_checkpoint(path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(PoseHighResolutionNet().state_dict(), path)
    finally:
        serialization.location_tag = original


def parse_args(default_file):
    parser = argparse.ArgumentParser(description="pose demo")
    parser.add_argument("--model-file", dest="model_file", default=default_file)
    return parser.parse_args([])


if __name__ == "__main__":
    torch.manual_seed(0)
    ckpt = os.path.join(tempfile.mkdtemp(), "pose_hrnet_w32_256x192.pth")
    publish_gpu_checkpoint(ckpt)
    pose_model = get_pose_net(parse_args(ckpt)).eval()
    with torch.no_grad():
        heatmaps = pose_model(torch.rand(1, 3, 64, 48))
    print("heatmaps", tuple(heatmaps.shape))
