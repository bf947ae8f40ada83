import torch
import torch.nn as nn


class VisionTransformer(nn.Module):
    def __init__(self, img_size=8, patch_size=4, num_classes=1000, embed_dim=32, depth=2, num_heads=2):
        super().__init__()
        n = (img_size // patch_size) ** 2
        self.patch_embed = nn.Conv2d(3, embed_dim, patch_size, patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, n + 1, embed_dim))
        self.blocks = nn.Sequential(*[nn.TransformerEncoderLayer(embed_dim, num_heads, embed_dim * 2, batch_first=True)
                                      for _ in range(depth)])
        self.norm = nn.LayerNorm(embed_dim)
        self.head = nn.Linear(embed_dim, num_classes)

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1) + self.pos_embed
        return self.head(self.norm(self.blocks(x))[:, 0])


def deit_tiny_patch4(pretrained=False, **kwargs):
    return VisionTransformer(patch_size=4, embed_dim=32, depth=2, num_heads=2, **kwargs)
