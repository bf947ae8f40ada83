"""Prompt-based human-object-interaction detector (CLIP-style, promting_hoi engine.py layout): the HOI text embeddings are encoded once inside an autocast region and cached on the model, but evaluation encodes the images outside autocast, so the float32 image features meet reduced-precision cached text embeddings in the similarity matmul
source: https://github.com/scwangdyd/promting_hoi/issues/1
reported-error: RuntimeError: expected scalar type Float but found Half (evaluation on HICO-DET with the released checkpoint; solved by wrapping the model.encode_image call of engine.py in autocast)
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: float != c10::BFloat16 at line 42
root-cause: line 38
expect: DG017
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

HOI_PROMPTS = ["a photo of a person riding a bicycle", "a photo of a person holding a cup",
               "a photo of a person feeding a horse", "a photo of a person no interaction"]


def tokenize(texts, vocab=200, length=8):
    return torch.tensor([[hash(w) % vocab for w in (t.split() + ["<pad>"] * length)[:length]] for t in texts])


# ---- models/hoi.py
class HOIDetector(nn.Module):
    def __init__(self, dim=32, vocab=200):
        super().__init__()
        self.visual = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, dim))
        self.token_embedding = nn.Embedding(vocab, dim)
        self.text_proj = nn.Linear(dim, dim)
        self.logit_scale = nn.Parameter(torch.tensor(4.6))
        self.hoi_text_embeds = None

    def encode_image(self, images):
        return F.normalize(self.visual(images), dim=-1)

    def encode_text(self, tokens):
        return F.normalize(self.text_proj(self.token_embedding(tokens).mean(1)), dim=-1)

    def cache_hoi_text_embeddings(self, tokens):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            self.hoi_text_embeds = self.encode_text(tokens)  # root-cause

    def forward(self, images):
        image_feats = self.encode_image(images)
        return self.logit_scale.exp() * image_feats @ self.hoi_text_embeds.t()  # fails-here


# ---- engine.py
@torch.no_grad()
def evaluate(model, images, targets):
    model.eval()
    logits = model(images)
    return (logits.argmax(-1) == targets).float().mean().item()


def train_one_epoch(model, optimizer, images, targets):
    model.train()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = model(images)
        loss = F.cross_entropy(logits.float(), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = HOIDetector()
    model.cache_hoi_text_embeddings(tokenize(HOI_PROMPTS))
    images, targets = torch.rand(8, 3, 32, 32), torch.randint(0, len(HOI_PROMPTS), (8,))
    with torch.no_grad():
        print("zero-shot accuracy", evaluate(model, images, targets))
