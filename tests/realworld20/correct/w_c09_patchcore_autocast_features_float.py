"""PatchCore-style detector that still extracts features under bfloat16 autocast, but converts them with .float() before they leave the block, so the float32 projector and the memory bank see float32
source: https://github.com/open-edge-platform/anomalib/issues/2066
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse

import torch
import torch.nn as nn


class FeatureExtractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer2 = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(32, 64, 3, padding=1), nn.ReLU())
        self.layer3 = nn.Sequential(nn.Conv2d(64, 128, 3, stride=2, padding=1), nn.ReLU())

    def forward(self, x):
        f2 = self.layer2(x)
        f3 = nn.functional.interpolate(self.layer3(f2), size=f2.shape[-2:], mode="bilinear")
        return torch.cat([f2, f3], 1)


class PatchcoreModel(nn.Module):
    def __init__(self, precision, proj_dim=48):
        super().__init__()
        self.feature_extractor = FeatureExtractor().eval()
        self.projector = nn.Linear(192, proj_dim, bias=False)
        self.dtype = {"bf16": torch.bfloat16, "fp32": torch.float32}[precision]
        self.memory_bank = None

    def embed(self, images):
        with torch.no_grad(), torch.autocast("cpu", dtype=self.dtype, enabled=self.dtype != torch.float32):
            feats = nn.functional.avg_pool2d(self.feature_extractor(images), 3, 1, 1).float()
        patches = feats.permute(0, 2, 3, 1).flatten(0, 2)
        return self.projector(patches)

    def fit(self, images, coreset_ratio=0.1):
        emb = self.embed(images)
        idx = torch.randperm(emb.shape[0])[: int(coreset_ratio * emb.shape[0])]
        self.memory_bank = emb[idx]

    def anomaly_map(self, image):
        emb = self.embed(image)
        dist = torch.cdist(emb, self.memory_bank).min(1).values
        side = int(dist.numel() ** 0.5)
        return dist.view(side, side)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--precision", default="bf16", choices=["bf16", "fp32"])
    args = p.parse_args([])
    torch.manual_seed(0)
    model = PatchcoreModel(args.precision)
    with torch.no_grad():
        model.fit(torch.rand(8, 3, 64, 64))
        amap = model.anomaly_map(torch.rand(1, 3, 64, 64))
    print("max anomaly score", amap.max().item())


if __name__ == "__main__":
    main()
