"""BLIP-2-style model with the frozen part in float16 and the new feature-extraction network kept in float32: after model.half() the trainable module is converted back with .float(), its output is cast to the frozen part's dtype, and Adam sees only float32 parameters
source: https://github.com/pytorch/pytorch/issues/147437
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn


class Blip2WithExtraFeatures(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.visual_proj = nn.Linear(48, dim)
        self.qformer = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.extra = nn.Sequential(nn.Linear(12, 64), nn.GELU(), nn.Linear(64, dim))
        self.head = nn.Linear(dim, 1)

    def forward(self, patches, extra_feats):
        frozen_dtype = self.visual_proj.weight.dtype
        extra = self.extra(extra_feats.float()).to(frozen_dtype)
        image_embeds = self.visual_proj(patches) + extra.unsqueeze(1)
        return self.head(self.qformer(image_embeds).mean(1)).squeeze(-1)


torch.manual_seed(0)
model = Blip2WithExtraFeatures().half()
model.extra.float()
for name, p in model.named_parameters():
    p.requires_grad_(name.startswith("extra."))
trainable = [p for p in model.parameters() if p.requires_grad]
optimizer = torch.optim.Adam(trainable, lr=1e-4)
patches, extra_feats, target = torch.randn(8, 16, 48).half(), torch.randn(8, 12) * 1e-2, torch.rand(8)
for step in range(3):
    loss = nn.functional.mse_loss(model(patches, extra_feats).float(), target) * 1e-2
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    n_bad = sum(int((~torch.isfinite(p)).sum()) for p in trainable)
    print(f"step {step}: loss {loss.item():.6f}, non-finite extractor params {n_bad}, dtype {trainable[0].dtype}")
