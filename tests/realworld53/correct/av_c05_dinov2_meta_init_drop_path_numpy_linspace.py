"""Linear probing of a (small) DINOv2 ViT backbone on histopathology tiles built under `with torch.device("meta")` (facebookresearch/dinov2 PR #477 as in av05) with the PR's change: the stochastic-depth rates come from np.linspace(...).tolist(), which the meta device does not touch, so the empty backbone is built, materialised with to_empty() and loaded from the checkpoint; the parameters (cls token, register tokens, layer scales) are still created under the meta context and only filled by the checkpoint
source: https://github.com/facebookresearch/dinov2/pull/477
reported-error: (none filed; the fixed situation of av05)
outcome: ok
root-cause: -
expect: none
"""
import math
import os
import tempfile
from functools import partial

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.init import trunc_normal_

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


# ---- dinov2/layers (trimmed: PatchEmbed, Attention, Mlp, LayerScale, DropPath, Block)
class PatchEmbed(nn.Module):
    def __init__(self, img_size=56, patch_size=14, in_chans=3, embed_dim=96):
        super().__init__()
        self.num_patches = (img_size // patch_size) ** 2
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class DropPath(nn.Module):
    def __init__(self, drop_prob=0.0):
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x):
        if self.drop_prob == 0.0 or not self.training:
            return x
        keep = x.new_empty((x.shape[0],) + (1,) * (x.ndim - 1)).bernoulli_(1 - self.drop_prob)
        return x * keep / (1 - self.drop_prob)


class Block(nn.Module):
    def __init__(self, dim, num_heads, mlp_ratio=4.0, drop_path=0.0, init_values=1e-5):
        super().__init__()
        self.num_heads = num_heads
        self.norm1, self.norm2 = nn.LayerNorm(dim, eps=1e-6), nn.LayerNorm(dim, eps=1e-6)
        self.qkv, self.proj = nn.Linear(dim, dim * 3), nn.Linear(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, int(dim * mlp_ratio)), nn.GELU(), nn.Linear(int(dim * mlp_ratio), dim))
        self.ls1 = nn.Parameter(init_values * torch.ones(dim))
        self.ls2 = nn.Parameter(init_values * torch.ones(dim))
        self.drop_path = DropPath(drop_path)

    def attn(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        return self.proj(F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(B, N, C))

    def forward(self, x):
        x = x + self.drop_path(self.ls1 * self.attn(self.norm1(x)))
        return x + self.drop_path(self.ls2 * self.mlp(self.norm2(x)))


# ---- dinov2/models/vision_transformer.py (trimmed, with PR #477)
class DinoVisionTransformer(nn.Module):
    def __init__(self, img_size=56, patch_size=14, embed_dim=96, depth=4, num_heads=3, drop_path_rate=0.1,
                 drop_path_uniform=False, num_register_tokens=4):
        super().__init__()
        self.embed_dim, self.patch_size = embed_dim, patch_size
        self.patch_embed = PatchEmbed(img_size, patch_size, 3, embed_dim)
        num_patches = self.patch_embed.num_patches
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches + 1, embed_dim))
        self.register_tokens = nn.Parameter(torch.zeros(1, num_register_tokens, embed_dim))
        if drop_path_uniform is True:
            dpr = [drop_path_rate] * depth
        else:
            dpr = np.linspace(0, drop_path_rate, depth).tolist()  # stochastic depth decay rule
        self.blocks = nn.ModuleList([Block(embed_dim, num_heads, drop_path=dpr[i]) for i in range(depth)])
        self.norm = nn.LayerNorm(embed_dim, eps=1e-6)
        self.head = nn.Identity()
        self.init_weights()

    def init_weights(self):
        trunc_normal_(self.pos_embed, std=0.02)
        nn.init.normal_(self.cls_token, std=1e-6)
        nn.init.normal_(self.register_tokens, std=1e-6)

    def forward_features(self, x):
        x = self.patch_embed(x)
        x = torch.cat((self.cls_token.expand(x.shape[0], -1, -1), x), dim=1) + self.pos_embed
        x = torch.cat((x[:, :1], self.register_tokens.expand(x.shape[0], -1, -1), x[:, 1:]), dim=1)
        for blk in self.blocks:
            x = blk(x)
        return self.norm(x)

    def forward(self, x):
        return self.head(self.forward_features(x)[:, 0])


def synth_tiles(n, size=56, seed=0):
    """H&E-like tiles: tumour tiles have more, larger and darker (haematoxylin) nuclei."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[:size, :size]
    tiles, labels = np.empty((n, 3, size, size), np.float32), rng.integers(0, 2, n)
    for i, tumour in enumerate(labels):
        img = np.stack([np.full((size, size), 0.93), np.full((size, size), 0.72), np.full((size, size), 0.85)])
        for _ in range(rng.integers(14, 22) if tumour else rng.integers(5, 10)):
            cy, cx, rad = rng.uniform(0, size, 2).tolist() + [rng.uniform(3, 5) if tumour else rng.uniform(1.5, 3)]
            nucleus = (yy - cy) ** 2 + (xx - cx) ** 2 < rad ** 2
            img[:, nucleus] = np.array([[0.35], [0.2], [0.55]])
        tiles[i] = img + rng.normal(0, 0.03, img.shape)
    mean, std = np.array([0.485, 0.456, 0.406]), np.array([0.229, 0.224, 0.225])
    return torch.from_numpy(((tiles - mean[:, None, None]) / std[:, None, None]).astype(np.float32)), torch.from_numpy(labels)


# the pretrained backbone weights (what the hub checkpoint would hold)
ckpt = os.path.join(tempfile.mkdtemp(), "dinov2_vits14_reg_small.pth")
torch.save(DinoVisionTransformer().state_dict(), ckpt)

with torch.device("meta"):
    backbone = DinoVisionTransformer()
backbone = backbone.to_empty(device=device)
backbone.load_state_dict(torch.load(ckpt, map_location=device))
backbone.eval().requires_grad_(False)

x_train, y_train = synth_tiles(256, seed=0)
x_val, y_val = synth_tiles(96, seed=1)
with torch.no_grad():
    f_train = torch.cat([backbone(x_train[i:i + 64].to(device)) for i in range(0, 256, 64)])
    f_val = backbone(x_val.to(device))

mu, sd = f_train.mean(0), f_train.std(0) + 1e-6
f_train, f_val = (f_train - mu) / sd, (f_val - mu) / sd
probe = nn.Linear(backbone.embed_dim, 2).to(device)
opt = torch.optim.Adam(probe.parameters(), lr=1e-2)
for epoch in range(200):
    loss = F.cross_entropy(probe(f_train), y_train.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
acc = (probe(f_val).argmax(1).cpu() == y_val).float().mean().item()
print(f"linear probe: train loss {loss.item():.3f}, val accuracy {acc:.3f}")
