"""Road-graph extraction in the style of SAM-Road: the inference wrapper converts the heavy image encoder to float16 once at load time, but the satellite tiles are still normalised into float32 tensors, so the first patch-embedding convolution sees a float input with half weights
source: https://github.com/htcr/sam_road/issues/28
reported-error: expected scalar type Half but found Float (model.py line 134, the image encoder call)
outcome: RuntimeError: Input type (float) and bias type (c10::Half) should be the same at line 21
root-cause: line 49
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ImageEncoder(nn.Module):
    def __init__(self, dim=32, patch=8):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, stride=patch)
        self.blocks = nn.Sequential(nn.Conv2d(dim, dim, 3, padding=1), nn.GELU(), nn.Conv2d(dim, dim, 3, padding=1))

    def forward(self, x):
        x = self.patch_embed(x)  # fails-here
        return x + self.blocks(x)


class MapDecoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.up = nn.Sequential(nn.ConvTranspose2d(dim, 16, 4, 4), nn.ReLU(), nn.ConvTranspose2d(16, 2, 2, 2))

    def forward(self, feats):
        return torch.sigmoid(self.up(feats.float()))


class SAMRoad(nn.Module):
    def __init__(self):
        super().__init__()
        self.image_encoder = ImageEncoder()
        self.map_decoder = MapDecoder()

    def forward(self, tiles):
        feats = self.image_encoder(tiles)
        masks = self.map_decoder(feats)
        return masks[:, 0], masks[:, 1]


def load_model(half_encoder=True):
    model = SAMRoad().eval()
    if half_encoder:
        model.image_encoder.half()  # root-cause
    return model


def read_tiles(n=2, size=64, seed=0):
    rng = np.random.default_rng(seed)
    rgb = rng.integers(0, 256, (n, size, size, 3), dtype=np.uint8)
    mean = np.array([123.7, 116.3, 103.5], dtype=np.float32)
    std = np.array([58.4, 57.1, 57.4], dtype=np.float32)
    return torch.from_numpy((rgb - mean) / std).permute(0, 3, 1, 2).contiguous()


def extract_keypoints(mask, thr=0.5):
    pooled = F.max_pool2d(mask.unsqueeze(1), 5, 1, 2).squeeze(1)
    return ((mask == pooled) & (mask > thr)).nonzero()


if __name__ == "__main__":
    model = load_model()
    tiles = read_tiles()
    with torch.no_grad():
        keypoint_mask, road_mask = model(tiles)
    print("keypoints", extract_keypoints(keypoint_mask).shape[0], "road px", int((road_mask > 0.5).sum()))
