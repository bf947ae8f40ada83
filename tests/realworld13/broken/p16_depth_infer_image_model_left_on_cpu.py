"""Monocular-depth demo whose infer_image() helper moves the prepared image to DEVICE (cuda when available) while the model, built in load_model(), is never moved there
source: https://github.com/DepthAnything/Depth-Anything-V2/issues/45
reported-error: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same
outcome: cuda-only: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same (not run on a GPU here; the exact wording varies with the torch version) at line 36; on CPU: ok
root-cause: line 42
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


class TinyDPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.GELU(),
                                     nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.GELU())
        self.head = nn.Conv2d(32, 1, 1)

    def forward(self, x):
        return F.relu(self.head(self.encoder(x)))

    def image2tensor(self, raw_image, input_size):
        img = raw_image[:, :, ::-1].astype(np.float32) / 255.0
        img = (img - np.array([0.485, 0.456, 0.406], np.float32)) / np.array([0.229, 0.224, 0.225], np.float32)
        x = torch.from_numpy(np.ascontiguousarray(img.transpose(2, 0, 1)))[None]
        x = F.interpolate(x, size=(input_size, input_size), mode="bilinear", align_corners=False)
        return x.to(DEVICE), raw_image.shape[:2]

    @torch.no_grad()
    def infer_image(self, raw_image, input_size=64):
        image, (h, w) = self.image2tensor(raw_image, input_size)
        depth = self.forward(image)  # fails-here
        depth = F.interpolate(depth, (h, w), mode="bilinear", align_corners=True)[0, 0]
        return depth.cpu().numpy()


def load_model():
    model = TinyDPT()  # root-cause
    return model.eval()


model = load_model()
raw_img = np.random.default_rng(0).integers(0, 256, size=(120, 160, 3), dtype=np.uint8)
depth = model.infer_image(raw_img)
print("depth map", depth.shape, float(depth.min()), float(depth.max()))
