"""Hand-written linear probe of a timm-style distilled DeiT (re-typed: VisionTransformer blocks with cls and distillation tokens, VisionTransformerDistilled.reset_classifier rebuilding head and head_dist, create_model(pretrained=True) from a local checkpoint) in float64: the model is cast with model.to(torch.float64), reset_classifier(0) turns it into a frozen feature extractor for a nearest-centroid baseline, then reset_classifier(5) brings the heads back to train them; reset_classifier builds both nn.Linear heads with the float32 default
source: https://github.com/huggingface/pytorch-image-models/pull/2751
reported-error: "Both reset paths created replacement linear layers with PyTorch's CPU and float32 defaults. Resetting a model after moving it to another dtype therefore produced a mixed-dtype module and made the next forward pass fail. ... The regression test covers the standard and distilled variants, including rebuilding a classifier after it was disabled with reset_classifier(0). Before this change, both variants rebuilt float32 heads and failed on float64 input." (VisionTransformer / VisionTransformerDistilled; merged as part of PR #2752)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 101
root-cause: line 86
expect: DG004
"""
import os
import tempfile
from typing import Optional

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
HUB_DIR = tempfile.mkdtemp()


class Attention(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads, self.scale = num_heads, (dim // num_heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        attn = ((q @ k.transpose(-2, -1)) * self.scale).softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B, N, C))


class Block(nn.Module):
    def __init__(self, dim, num_heads, mlp_ratio=2.0):
        super().__init__()
        self.norm1, self.attn = nn.LayerNorm(dim, eps=1e-6), Attention(dim, num_heads)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(dim, int(dim * mlp_ratio)), nn.GELU(), nn.Linear(int(dim * mlp_ratio), dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class VisionTransformer(nn.Module):
    def __init__(self, img_size=32, patch_size=8, embed_dim=48, depth=2, num_heads=3, num_classes=1000,
                 global_pool="token"):
        super().__init__()
        self.num_classes, self.global_pool, self.embed_dim = num_classes, global_pool, embed_dim
        self.num_prefix_tokens = 1
        self.patch_embed = nn.Conv2d(3, embed_dim, patch_size, patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.randn(1, (img_size // patch_size) ** 2 + 1, embed_dim) * 0.02)
        self.blocks = nn.Sequential(*[Block(embed_dim, num_heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(embed_dim, eps=1e-6)
        self.head = nn.Linear(embed_dim, num_classes) if num_classes > 0 else nn.Identity()

    def reset_classifier(self, num_classes: int, global_pool: Optional[str] = None) -> None:
        self.num_classes = num_classes
        if global_pool is not None:
            self.global_pool = global_pool
        self.head = nn.Linear(self.embed_dim, num_classes) if num_classes > 0 else nn.Identity()

    def _pos_embed(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        return torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1) + self.pos_embed

    def forward_features(self, x):
        return self.norm(self.blocks(self._pos_embed(x)))


class VisionTransformerDistilled(VisionTransformer):
    """DeiT with a distillation token: two heads, averaged at inference."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.num_prefix_tokens = 2
        self.dist_token = nn.Parameter(torch.zeros(1, 1, self.embed_dim))
        self.pos_embed = nn.Parameter(torch.randn(1, self.pos_embed.shape[1] + 1, self.embed_dim) * 0.02)
        self.head_dist = nn.Linear(self.embed_dim, self.num_classes) if self.num_classes > 0 else nn.Identity()
        self.distilled_training = False

    def reset_classifier(self, num_classes: int, global_pool: Optional[str] = None):
        self.num_classes = num_classes
        self.head = nn.Linear(self.embed_dim, num_classes) if num_classes > 0 else nn.Identity()  # root-cause
        self.head_dist = nn.Linear(self.embed_dim, self.num_classes) if num_classes > 0 else nn.Identity()  # root-cause-alt

    def set_distilled_training(self, enable=True):
        self.distilled_training = enable

    def _pos_embed(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), self.dist_token.expand(x.shape[0], -1, -1), x], dim=1)
        return x + self.pos_embed

    def forward_head(self, x, pre_logits: bool = False):
        x, x_dist = x[:, 0], x[:, 1]
        if pre_logits:
            return (x + x_dist) / 2
        x = self.head(x)  # fails-here
        x_dist = self.head_dist(x_dist)
        if self.distilled_training and self.training:
            return x, x_dist
        return (x + x_dist) / 2

    def forward(self, x):
        return self.forward_head(self.forward_features(x))


def create_model(name, pretrained=False, num_classes=1000):
    model = VisionTransformerDistilled(num_classes=1000)
    if pretrained:
        model.load_state_dict(torch.load(os.path.join(HUB_DIR, name, "pytorch_model.bin"), map_location="cpu"))
    if num_classes != 1000:
        model.reset_classifier(num_classes)
    return model


os.makedirs(os.path.join(HUB_DIR, "deit_tiny_distilled_patch16_224"))
torch.save(VisionTransformerDistilled().state_dict(), os.path.join(HUB_DIR, "deit_tiny_distilled_patch16_224", "pytorch_model.bin"))

# --- linear probe on 5 plankton classes, in float64 ---
num_classes = 5
rng = np.random.RandomState(0)
labels = rng.randint(0, num_classes, size=80)
images = (rng.rand(80, 3, 32, 32) * 0.5 + labels[:, None, None, None] / (2 * num_classes)).astype(np.float32)
x_all, y_all = torch.from_numpy(images).double(), torch.from_numpy(labels)

model = create_model("deit_tiny_distilled_patch16_224", pretrained=True)
model.to(torch.float64)
for p in model.parameters():
    p.requires_grad = False

# 1) frozen features + nearest-centroid baseline
model.reset_classifier(0)
model.eval()
with torch.no_grad():
    feats = model(x_all)
centroids = torch.stack([feats[y_all == c].mean(0) for c in range(num_classes)])
baseline_acc = (torch.cdist(feats, centroids).argmin(1) == y_all).double().mean().item()
print(f"nearest-centroid accuracy on frozen features: {baseline_acc:.3f}")

# 2) bring the heads back and train only them
model.reset_classifier(num_classes)
optimizer = torch.optim.SGD(list(model.head.parameters()) + list(model.head_dist.parameters()), lr=0.1, momentum=0.9)
for epoch in range(5):
    model.train()
    for idx in torch.randperm(len(y_all)).split(16):
        loss = nn.functional.cross_entropy(model(x_all[idx]), y_all[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
model.eval()
with torch.no_grad():
    probe_acc = (model(x_all).argmax(1) == y_all).double().mean().item()
print(f"linear probe accuracy: {probe_acc:.3f}")
