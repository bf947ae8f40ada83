"""SimCLR-style contrastive pre-training on CPU with bf16 autocast: encode() wraps only the backbone in torch.autocast("cpu", dtype=torch.bfloat16), and train_step() passes its bf16 features to the float32 projection MLP outside the block before the NT-Xent loss
source: https://github.com/pytorch/pytorch/issues/105682
reported-error: torch.autocast(bfloat16) region boundaries: outputs produced inside autocast leave it in bf16 (RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 49
root-cause: line 34
expect: DG017
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2), nn.ReLU(), nn.Conv2d(16, 32, 3, stride=2), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, dim))

    def forward(self, x):
        return self.conv(x)


def augment(batch_hwc_uint8, rng):
    x = torch.from_numpy(batch_hwc_uint8).permute(0, 3, 1, 2).float() / 255.0
    if rng.random() > 0.5:
        x = x.flip(-1)
    return x + 0.05 * torch.randn_like(x)


def encode(backbone, x):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        feats = backbone(x)
    return feats  # root-cause


def nt_xent(z1, z2, tau=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.T / tau
    sim.fill_diagonal_(float("-inf"))
    n = z1.shape[0]
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim.float(), targets)


def train_step(backbone, projector, images, opt, rng):
    h1 = encode(backbone, augment(images, rng))
    h2 = encode(backbone, augment(images, rng))
    loss = nt_xent(projector(h1), projector(h2))  # fails-here
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


rng = np.random.default_rng(0)
images = rng.integers(0, 256, size=(16, 32, 32, 3), dtype=np.uint8)
backbone = Backbone()
projector = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 32))
opt = torch.optim.Adam(list(backbone.parameters()) + list(projector.parameters()), lr=1e-3)
for step in range(2):
    print("step", step, "loss", train_step(backbone, projector, images, opt, rng))
