"""Keypoint augmentation pipeline that composes its random affine matrices (rotation @ scale @ shear) inside the training step's bfloat16 autocast region; the composed matrix comes out bfloat16 and warp_points(), called after the block, multiplies it with the float32 keypoints
source: https://github.com/kornia/kornia/pull/1842
reported-error: type mismatch error: transformation matrices produced by matmul inside an autocast-enabled region are float16 while the input stays float32 (fixed by casting the output back to the input dtype)
outcome: RuntimeError: expected scalar type Float but found BFloat16 at line 32
root-cause: line 50
expect: DG017
"""
import math

import torch
import torch.nn as nn


def rotation(angles):
    c, s = torch.cos(angles), torch.sin(angles)
    z, o = torch.zeros_like(c), torch.ones_like(c)
    return torch.stack([torch.stack([c, -s, z], -1), torch.stack([s, c, z], -1), torch.stack([z, z, o], -1)], 1)


def scaling(factors):
    return torch.diag_embed(torch.stack([factors, factors, torch.ones_like(factors)], -1))


def shear(amount):
    m = torch.eye(3).repeat(len(amount), 1, 1)
    m[:, 0, 1] = amount
    return m


def warp_points(matrix, points):
    homo = torch.cat([points, torch.ones(*points.shape[:-1], 1)], -1)
    return torch.bmm(homo, matrix.transpose(1, 2))[..., :2]  # fails-here


class KeypointNet(nn.Module):
    def __init__(self, k=5):
        super().__init__()
        self.k = k
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 16 * 16, 64), nn.ReLU(), nn.Linear(64, 2 * k))

    def forward(self, img):
        return self.net(img).view(-1, self.k, 2)


def train_step(model, opt, img, keypoints, g):
    b = img.size(0)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        angles = (torch.rand(b, generator=g) - 0.5) * math.pi / 6
        factors = 0.9 + 0.2 * torch.rand(b, generator=g)
        matrix = rotation(angles) @ scaling(factors) @ shear(0.1 * torch.rand(b, generator=g))  # root-cause
        pred = model(img)
    target = warp_points(matrix, keypoints)
    loss = (pred.float() - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = KeypointNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    print(f"loss {train_step(model, opt, torch.rand(4, 3, 16, 16), torch.rand(4, 5, 2), g):.4f}")
