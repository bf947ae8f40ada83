"""TinyViT attention (MobileSAM) with the eval-time attention bias registered as a non-persistent buffer, so .to(device) moves it (the merged fix)
source: https://github.com/ChaoningZhang/MobileSAM/pull/47
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (in the broken version)
outcome: ok
root-cause: -
expect: none
"""
import itertools

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, key_dim, num_heads=4, attn_ratio=1, resolution=(7, 7)):
        super().__init__()
        self.num_heads = num_heads
        self.scale = key_dim ** -0.5
        self.key_dim = key_dim
        self.d = int(attn_ratio * key_dim)
        self.dh = self.d * num_heads
        h = self.dh + key_dim * num_heads * 2
        self.norm = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, h)
        self.proj = nn.Linear(self.dh, dim)
        points = list(itertools.product(range(resolution[0]), range(resolution[1])))
        N = len(points)
        attention_offsets, idxs = {}, []
        for p1 in points:
            for p2 in points:
                offset = (abs(p1[0] - p2[0]), abs(p1[1] - p2[1]))
                if offset not in attention_offsets:
                    attention_offsets[offset] = len(attention_offsets)
                idxs.append(attention_offsets[offset])
        self.attention_biases = nn.Parameter(torch.zeros(num_heads, len(attention_offsets)))
        self.register_buffer("attention_bias_idxs", torch.LongTensor(idxs).view(N, N), persistent=False)

    @torch.no_grad()
    def train(self, mode=True):
        super().train(mode)
        if mode and hasattr(self, "ab"):
            del self.ab
        else:
            self.register_buffer("ab", self.attention_biases[:, self.attention_bias_idxs], persistent=False)

    def forward(self, x):
        B, N, _ = x.shape
        x = self.norm(x)
        q, k, v = self.qkv(x).view(B, N, self.num_heads, -1).split([self.key_dim, self.key_dim, self.d], dim=3)
        q, k, v = q.permute(0, 2, 1, 3), k.permute(0, 2, 1, 3), v.permute(0, 2, 1, 3)
        bias = self.attention_biases[:, self.attention_bias_idxs] if self.training else self.ab
        attn = (q @ k.transpose(-2, -1)) * self.scale + bias
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, self.dh)
        return self.proj(x)


class TinyViTEncoder(nn.Module):
    def __init__(self, dim=64, depth=2):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=8, stride=8)
        self.blocks = nn.ModuleList([Attention(dim, key_dim=16, num_heads=4) for _ in range(depth)])

    def forward(self, img):
        x = self.patch_embed(img).flatten(2).transpose(1, 2)  # (B, 49, dim) for a 56x56 crop
        for blk in self.blocks:
            x = x + blk(x)
        return x


def build_sam_vit_t(checkpoint=None):
    image_encoder = TinyViTEncoder()
    image_encoder.eval()
    if checkpoint is not None:
        image_encoder.load_state_dict(torch.load(checkpoint, map_location="cpu"))
    return image_encoder


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    mobile_sam = build_sam_vit_t()
    mobile_sam.to(device=device)
    image = torch.rand(1, 3, 56, 56, device=device)
    with torch.no_grad():
        embedding = mobile_sam(image)
    print(embedding.shape)
