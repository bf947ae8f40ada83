"""Monocular depth estimation demo (Depth-Anything-V2 run.py layout): the model builder halves the weights when the config asks for fp16 to save memory, but image2tensor still normalises the image with NumPy and returns a float32 tensor, so the patch-embedding Conv2d gets a float input with half weights
source: https://github.com/DepthAnything/Depth-Anything-V2/issues/264
reported-error: RuntimeError: Input type (float) and bias type (struct c10::Half) should be the same
outcome: RuntimeError: Input type (float) and bias type (c10::Half) should be the same at line 26
root-cause: line 59
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

MODEL_CONFIGS = {
    "vits": {"encoder": "vits", "features": 32, "out_channels": [16, 32, 48, 64]},
    "vitb": {"encoder": "vitb", "features": 64, "out_channels": [32, 64, 96, 128]},
}


# ---- depth_anything_v2/dpt.py
class PatchEmbed(nn.Module):
    def __init__(self, patch=14, dim=64):
        super().__init__()
        self.proj = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)

    def forward(self, x):
        return self.proj(x)  # fails-here


class DepthAnythingV2(nn.Module):
    def __init__(self, encoder="vits", features=32, out_channels=(16, 32, 48, 64)):
        super().__init__()
        self.patch_embed = PatchEmbed(dim=out_channels[-1])
        self.blocks = nn.Sequential(nn.Conv2d(out_channels[-1], features, 1), nn.GELU(), nn.Conv2d(features, features, 3, padding=1))
        self.head = nn.Conv2d(features, 1, 1)

    def forward(self, x):
        h, w = x.shape[-2:]
        depth = self.head(self.blocks(self.patch_embed(x)))
        return F.interpolate(depth, size=(h, w), mode="bilinear", align_corners=False).squeeze(1)

    def image2tensor(self, raw_image, input_size=98):
        image = raw_image[:, :, ::-1] / 255.0
        image = (image - np.array([0.485, 0.456, 0.406])) / np.array([0.229, 0.224, 0.225])
        image = np.ascontiguousarray(image.transpose(2, 0, 1)).astype(np.float32)
        image = torch.from_numpy(image).unsqueeze(0)
        return F.interpolate(image, size=(input_size, input_size), mode="bilinear", align_corners=False)

    @torch.no_grad()
    def infer_image(self, raw_image, input_size=98):
        image = self.image2tensor(raw_image, input_size)
        depth = self.forward(image)
        return depth[0].float().numpy()


# ---- run.py
def build_model(args):
    model = DepthAnythingV2(**MODEL_CONFIGS[args["encoder"]])
    if args.get("fp16", False):
        model = model.half()  # root-cause
    return model.eval()


if __name__ == "__main__":
    torch.manual_seed(0)
    args = {"encoder": "vits", "input_size": 98, "fp16": True, "grayscale": False}
    depth_anything = build_model(args)
    raw_image = np.random.default_rng(0).integers(0, 256, (120, 160, 3)).astype(np.uint8)
    depth = depth_anything.infer_image(raw_image, args["input_size"])
    depth = (depth - depth.min()) / (depth.max() - depth.min()) * 255.0
    print("depth map", depth.shape, depth.dtype)
