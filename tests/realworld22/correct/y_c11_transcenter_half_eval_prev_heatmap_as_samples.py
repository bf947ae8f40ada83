"""TransCenter-style half-precision evaluation that converts the rendered previous-frame heatmap with .to(samples.dtype) before passing it to the half model, so the concatenated features stay float16
source: https://github.com/yihongXU/TransCenter/issues/19
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn


# ---- models/dla.py
class IDAUp(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.node = nn.Sequential(nn.Conv2d(ch + 1, ch, 3, padding=1), nn.ReLU())

    def forward(self, feats, pre_hm):
        return self.node(torch.cat([feats, pre_hm], 1))


# ---- models/transcenter.py
class TransCenterLite(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(6, ch, 3, stride=2, padding=1), nn.ReLU())
        self.ida_up = IDAUp(ch)
        self.hm_head = nn.Conv2d(ch, 1, 1)

    def forward(self, samples, pre_samples, pre_hm):
        feats = self.backbone(torch.cat([samples, pre_samples], 1))
        return {"hm": self.hm_head(self.ida_up(feats, pre_hm)).sigmoid()}


# ---- datasets/mot.py
def render_pre_cts(centers, h, w, sigma=2.0):
    yy, xx = torch.meshgrid(torch.arange(h, dtype=torch.float32), torch.arange(w, dtype=torch.float32), indexing="ij")
    hm = torch.zeros(1, 1, h, w)
    for cx, cy in centers:
        hm[0, 0] = torch.maximum(hm[0, 0], torch.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma ** 2)))
    return hm


# ---- training/engine.py
@torch.no_grad()
def evaluate(model, frames, tracks, half=False):
    model.eval()
    results = []
    for t in range(1, len(frames)):
        samples, pre_samples = frames[t], frames[t - 1]
        targets = {"pre_cts": render_pre_cts(tracks[t - 1], 16, 16)}
        if half:
            samples, pre_samples = samples.half(), pre_samples.half()
        outputs = model(samples, pre_samples=pre_samples, pre_hm=targets["pre_cts"].clone().to(samples.dtype))
        results.append(outputs["hm"].float().flatten().argmax().item())
    return results


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TransCenterLite()
    half = True
    if half:
        model = model.half()
    frames = [torch.rand(1, 3, 32, 32) for _ in range(4)]
    tracks = [[(4.0 + t, 5.0), (10.0, 12.0 - t)] for t in range(4)]
    print("peak positions", evaluate(model, frames, tracks, half=half))
