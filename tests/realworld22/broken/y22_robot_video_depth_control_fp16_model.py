"""Robot-video augmentation with a depth-map control input (cosmos-transfer1 robot_augmentation workflow): the depth preprocessor loads its Depth-Anything-like estimator in float16 to save memory, while the frames decoded from the input video are normalised to float32 tensors, so the first patch-embedding convolution sees float input with half weights
source: https://github.com/nvidia-cosmos/cosmos-transfer1/issues/137
reported-error: Error: Input type (float) and bias type (c10::Half) should be the same (running the robotic augmentation workflow; the preprocessor generates the depth control video with DepthAnythingModel)
outcome: RuntimeError: Input type (float) and bias type (c10::Half) should be the same at line 25
root-cause: line 31
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

PREPROCESSOR_CFG = {"depth": {"model": "Depth-Anything-V2-Small", "dtype": torch.float16}}


# ---- auxiliary/depth_anything/model/depth_anything.py
class TinyDepthAnything(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, 4, stride=4)
        self.blocks = nn.Sequential(nn.Conv2d(dim, dim, 3, padding=1), nn.GELU(), nn.Conv2d(dim, dim, 3, padding=1), nn.GELU())
        self.head = nn.Conv2d(dim, 1, 1)

    def forward(self, pixel_values):
        h = self.blocks(self.patch_embed(pixel_values))  # fails-here
        return F.interpolate(self.head(h), scale_factor=4, mode="bilinear", align_corners=False)


class DepthAnythingModel:
    def __init__(self, cfg):
        self.model = TinyDepthAnything().to(dtype=cfg["dtype"]).eval()  # root-cause
        self.mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
        self.std = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)

    @torch.no_grad()
    def __call__(self, frames_uint8):
        frames = torch.from_numpy(frames_uint8).permute(0, 3, 1, 2).float() / 255.0
        depth = self.model((frames - self.mean) / self.std)
        depth = (depth - depth.amin()) / (depth.amax() - depth.amin() + 1e-6)
        return (depth.float() * 255).to(torch.uint8)


# ---- diffusion/inference/preprocessors.py
def read_video(n_frames=4, h=32, w=48, seed=0):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, size=(n_frames, h, w, 3), dtype=np.uint8)


def gen_input_control(video, control_inputs):
    out = {}
    if "depth" in control_inputs:
        out["depth"] = DepthAnythingModel(PREPROCESSOR_CFG["depth"])(video)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    controls = gen_input_control(read_video(), control_inputs={"depth": {"control_weight": 0.5}})
    print("depth control video", tuple(controls["depth"].shape), controls["depth"].dtype)
