"""BLIP-2-style model trained in float16 to fit in memory: the whole model (frozen vision/Q-former part plus the new feature-extraction network) is cast with .half(), only the new network is trainable, and plain Adam (eps=1e-8) updates its float16 weights
source: https://github.com/pytorch/pytorch/issues/147437
reported-error: silent: after optimizer.step() in the first iteration the parameters of the feature extraction network all became NaN (sqrt(v_t) is zero in float16 and eps=1e-8 is ineffective)
outcome: ok (silent: step 0 prints 0 non-finite parameters, after the first optimizer.step at line 61 "non-finite extractor params" is above 0 and the loss turns nan)
root-cause: line 47
expect: DG012
"""
import torch
import torch.nn as nn


class QFormer(nn.Module):
    def __init__(self, dim=32, n_query=4):
        super().__init__()
        self.query_tokens = nn.Parameter(torch.randn(1, n_query, dim) * 0.02)
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.proj = nn.Linear(dim, dim)

    def forward(self, image_embeds):
        q = self.query_tokens.expand(image_embeds.size(0), -1, -1)
        return self.proj(self.attn(q, image_embeds, image_embeds, need_weights=False)[0])


class NewFeatureExtractor(nn.Module):
    def __init__(self, in_dim=12, dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 64), nn.GELU(), nn.Linear(64, dim))

    def forward(self, feats):
        return self.net(feats)


class Blip2WithExtraFeatures(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.visual_proj = nn.Linear(48, dim)
        self.qformer = QFormer(dim)
        self.extra = NewFeatureExtractor(dim=dim)
        self.head = nn.Linear(dim, 1)

    def forward(self, patches, extra_feats):
        image_embeds = self.visual_proj(patches) + self.extra(extra_feats).unsqueeze(1)
        return self.head(self.qformer(image_embeds).mean(1)).squeeze(-1)


torch.manual_seed(0)
model = Blip2WithExtraFeatures().half()  # root-cause
for name, p in model.named_parameters():
    p.requires_grad_(name.startswith("extra."))
optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-4)

patches = torch.randn(8, 16, 48).half()
extra_feats = torch.randn(8, 12).half() * 1e-2
target = torch.rand(8).half()
for step in range(3):
    loss = nn.functional.mse_loss(model(patches, extra_feats).float(), target.float()) * 1e-2
    optimizer.zero_grad()
    loss.backward()
    n_bad = sum(int((~torch.isfinite(p)).sum()) for p in model.extra.parameters())
    print(f"step {step}: loss {loss.item():.6f}, non-finite extractor params {n_bad}")
    optimizer.step()  # fails-here
