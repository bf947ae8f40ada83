"""Multi-object tracking with an appearance ReID backend (boxmot layout) run with --half: the backend casts the image crops to float16 in its preprocessing when half=True, but the CLIP-style ReID model is built by a loader that returns it after the backend's half() step, so its weights stay float32 and the first convolution gets half crops
source: https://github.com/mikel-brostrom/boxmot/pull/1820
reported-error: RuntimeError: expected scalar type Float but found Half (track.py --reid-model=clip_market1501.pt --half; torch.layer_norm inside the CLIP ReID model)
outcome: RuntimeError: expected scalar type Half but found Float at line 24
root-cause: line 52
expect: DG004
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- boxmot/appearance/backbones/clip.py
class CLIPReID(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.conv1 = nn.Conv2d(3, dim, 8, stride=8, bias=False)
        self.ln_pre = nn.LayerNorm(dim)
        self.proj = nn.Linear(dim, 16)

    def forward(self, x):
        tokens = self.conv1(x).flatten(2).transpose(1, 2)  # fails-here
        return F.normalize(self.proj(self.ln_pre(tokens).mean(1)), dim=-1)


def load_clip_reid(weights):
    model = CLIPReID()
    model.load_state_dict(weights)
    return model.eval()


# ---- boxmot/appearance/reid_backend.py
class ReIDBackend:
    def __init__(self, weights, half=False):
        self.half = half
        self.model = None
        self.weights = weights

    def warmup(self):
        if self.model is None:
            self.model = load_clip_reid(self.weights)

    def preprocess(self, frame, boxes):
        crops = []
        for x1, y1, x2, y2 in boxes:
            crop = frame[:, :, y1:y2, x1:x2]
            crops.append(F.interpolate(crop, size=(64, 32), mode="bilinear", align_corners=False))
        crops = torch.cat(crops)
        if self.half:
            crops = crops.half()  # root-cause
        return crops

    @torch.no_grad()
    def get_features(self, frame, boxes):
        self.warmup()
        return self.model(self.preprocess(frame, boxes))


# ---- tracking/track.py
def associate(prev_feats, feats):
    if prev_feats is None:
        return list(range(len(feats)))
    return (feats.float() @ prev_feats.float().T).argmax(1).tolist()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--half", action="store_true")
    args = parser.parse_args(["--half"])
    torch.manual_seed(0)
    backend = ReIDBackend(CLIPReID().state_dict(), half=args.half)
    prev = None
    for frame_idx in range(3):
        frame = torch.rand(1, 3, 120, 160)
        boxes = [(10, 10, 40, 70), (60, 20, 90, 90), (100, 30, 140, 100)]
        feats = backend.get_features(frame, boxes)
        ids = associate(prev, feats)
        prev = feats
        print(f"frame {frame_idx} track ids {ids}")


if __name__ == "__main__":
    main()
