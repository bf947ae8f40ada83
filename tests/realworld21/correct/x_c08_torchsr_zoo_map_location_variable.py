"""Super-resolution model zoo whose loader passes map_location through a variable (the device requested by the caller, CPU by default), so the GPU-saved EDSR weights load on a CPU-only instance
source: https://github.com/Coloquinte/torchSR/pull/3
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.serialization as serialization

ZOO_DIR = tempfile.mkdtemp()


# ---- torchsr/models/edsr.py
class ResBlock(nn.Module):
    def __init__(self, n_feats):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(n_feats, n_feats, 3, padding=1), nn.ReLU(), nn.Conv2d(n_feats, n_feats, 3, padding=1))

    def forward(self, x):
        return x + 0.1 * self.body(x)


class EDSR(nn.Module):
    def __init__(self, scale=2, n_feats=16, n_blocks=2):
        super().__init__()
        self.head = nn.Conv2d(3, n_feats, 3, padding=1)
        self.body = nn.Sequential(*[ResBlock(n_feats) for _ in range(n_blocks)])
        self.tail = nn.Sequential(nn.Conv2d(n_feats, 3 * scale ** 2, 3, padding=1), nn.PixelShuffle(scale))

    def forward(self, x):
        h = self.head(x)
        return self.tail(h + self.body(h))


def load_zoo_weights(name, device="cpu"):
    target = torch.device(device)
    return torch.load(os.path.join(ZOO_DIR, f"{name}.pt"), map_location=target)


def edsr_baseline(scale=2, pretrained=False, device="cpu"):
    model = EDSR(scale)
    if pretrained:
        model.load_state_dict(load_zoo_weights(f"edsr_baseline_x{scale}", device))
    return model


def publish_gpu_weights(scale=2):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(EDSR(scale).state_dict(), os.path.join(ZOO_DIR, f"edsr_baseline_x{scale}.pt"))
    finally:
        serialization.location_tag = original


# ---- finetune.py
def finetune(model, steps=3):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for step in range(steps):
        hr = torch.rand(4, 3, 32, 32)
        lr = F.interpolate(hr, scale_factor=0.5, mode="bicubic", align_corners=False)
        loss = F.l1_loss(model(lr), hr)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: l1 {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    publish_gpu_weights()
    finetune(edsr_baseline(scale=2, pretrained=True))
