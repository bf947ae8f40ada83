"""Contrastive image-text trainer whose encode() applies the float32 projection heads inside the bfloat16 autocast block and returns the embeddings with .float(); the similarity matrix and cross-entropy are computed outside autocast
source: https://discuss.pytorch.org/t/torch-autocasts-gradient/169003
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DualEncoder(nn.Module):
    def __init__(self, img_dim=96, vocab=200, dim=64, proj=32):
        super().__init__()
        self.image_tower = nn.Sequential(nn.Linear(img_dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.text_embed = nn.EmbeddingBag(vocab, dim)
        self.img_proj = nn.Linear(dim, proj)
        self.txt_proj = nn.Linear(dim, proj)
        self.logit_scale = nn.Parameter(torch.tensor(2.0))


def encode(model, images, tokens):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        img = model.img_proj(model.image_tower(images))
        txt = model.txt_proj(model.text_embed(tokens))
    return F.normalize(img.float(), dim=-1), F.normalize(txt.float(), dim=-1)


model = DualEncoder()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(3):
    img, txt = encode(model, torch.randn(16, 96), torch.randint(0, 200, (16, 10)))
    logits = model.logit_scale.exp() * img @ txt.t()
    labels = torch.arange(16)
    loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f} ({loss.dtype})")
