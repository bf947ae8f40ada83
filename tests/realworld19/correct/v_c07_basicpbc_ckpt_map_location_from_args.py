"""Line-art colorization inference whose constructor loads the GPU-saved matcher with torch.load(args['ckpt'], map_location=args['device']), the device chosen at run time, then the model is moved there
source: https://github.com/ykdai/BasicPBC/issues/20
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch import serialization


class SegmentMatcher(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(4, dim, 3, padding=1), nn.ReLU(), nn.Conv2d(dim, dim, 3, padding=1))
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return self.encoder(x)


# ---- basicsr/archs/basicpbc_arch.py
class BasicPBC(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.matcher = SegmentMatcher()
        if args.get("ckpt"):
            state_dict = torch.load(args["ckpt"], map_location=args["device"])
            self.matcher.load_state_dict(state_dict)
        self.color_head = nn.Conv2d(32, 3, 1)

    def forward(self, line, ref_color):
        feats = self.matcher(torch.cat([line, ref_color], 1))
        return torch.sigmoid(self.color_head(feats))


def export_pretrained_from_gpu_run(path):
    """Stand-in for the released checkpoint (saved from a CUDA model, so storages are tagged cuda:0)."""
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(SegmentMatcher().state_dict(), path)
    finally:
        serialization.location_tag = original


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--path", default="dataset/test/laughing_girl")
    args = parser.parse_args([])
    ckpt = os.path.join(tempfile.mkdtemp(), "basicpbc.pth")
    export_pretrained_from_gpu_run(ckpt)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = BasicPBC({"ckpt": ckpt, "descriptor_dim": 32, "device": device}).to(device).eval()
    rng = np.random.default_rng(0)
    line = torch.from_numpy(rng.random((1, 1, 32, 32)).astype(np.float32))
    ref = torch.from_numpy(rng.random((1, 3, 32, 32)).astype(np.float32))
    with torch.no_grad():
        colored = model(line.to(device), ref.to(device))
    print(args.path, "colored frame", tuple(colored.shape))


if __name__ == "__main__":
    main()
