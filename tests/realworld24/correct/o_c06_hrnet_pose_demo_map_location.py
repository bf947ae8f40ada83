"""Human-pose estimation demo that restores the GPU-written pose checkpoint with torch.load(path, map_location=device) where device is picked from torch.cuda.is_available(), so the cuda:0-tagged storages land on the CPU of a laptop
source: https://github.com/leoxiaobin/deep-high-resolution-net.pytorch/pull/188
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization as serialization


class PoseHighResolutionNet(nn.Module):
    def __init__(self, num_joints=17):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.final_layer = nn.Conv2d(16, num_joints, 1)

    def forward(self, x):
        return self.final_layer(self.stem(x))


def get_pose_net(model_file, device):
    model = PoseHighResolutionNet()
    state = torch.load(model_file, map_location=device)
    model.load_state_dict(state)
    return model.to(device)


def publish_gpu_checkpoint(path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(PoseHighResolutionNet().state_dict(), path)
    finally:
        serialization.location_tag = original


if __name__ == "__main__":
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ckpt = os.path.join(tempfile.mkdtemp(), "pose_hrnet_w32_256x192.pth")
    publish_gpu_checkpoint(ckpt)
    pose_model = get_pose_net(ckpt, device).eval()
    with torch.no_grad():
        heatmaps = pose_model(torch.rand(1, 3, 64, 48, device=device))
    print("heatmaps", tuple(heatmaps.shape))
