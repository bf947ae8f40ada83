"""Contrastive image-text trainer on CPU with bfloat16 autocast: encode() runs the towers inside torch.autocast, returns bfloat16 embeddings, and the float32 projection heads are applied afterwards in the loss function, outside the autocast block
source: https://discuss.pytorch.org/t/torch-autocasts-gradient/169003
reported-error: question about what autocast does to dtypes (outputs are low precision inside the block, parameters and grads stay float32)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 32
root-cause: line 28
expect: DG017
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DualEncoder(nn.Module):
    def __init__(self, img_dim=96, txt_vocab=200, dim=64, proj=32):
        super().__init__()
        self.image_tower = nn.Sequential(nn.Linear(img_dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.text_embed = nn.EmbeddingBag(txt_vocab, dim)
        self.text_tower = nn.Linear(dim, dim)
        self.img_proj = nn.Linear(dim, proj)
        self.txt_proj = nn.Linear(dim, proj)
        self.logit_scale = nn.Parameter(torch.tensor(2.0))


def encode(model, images, tokens):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        img = model.image_tower(images)
        txt = model.text_tower(model.text_embed(tokens))
    return img, txt  # root-cause


def clip_loss(model, img, txt):
    img = F.normalize(model.img_proj(img), dim=-1)  # fails-here
    txt = F.normalize(model.txt_proj(txt), dim=-1)
    logits = model.logit_scale.exp() * img @ txt.t()
    labels = torch.arange(len(img))
    return (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2


model = DualEncoder()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(3):
    images = torch.randn(16, 96)
    tokens = torch.randint(0, 200, (16, 10))
    img, txt = encode(model, images, tokens)
    loss = clip_loss(model, img, txt)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")
