"""Video-text moment retrieval (mmf/TVR-style cross-modal transformer) trained with fp16=true, i.e. the forward pass under float16 autocast: the video encoder masks padded clip features with scores.masked_fill(~mask, -1e9), but inside the autocast region the attention scores come out of the matmul as float16, where -1e9 overflows
source: https://github.com/facebookresearch/mmf/pull/962
reported-error: "-1e9" induces "RuntimeError: value cannot be converted to type at::Half without overflow:" when fp16=true, replace it with "-10000.0"
outcome: RuntimeError: value cannot be converted to type c10::Half without overflow at line 33
root-cause: line 60
expect: DG018
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainingConfig:
    fp16: bool = True
    lr: float = 1e-4
    max_updates: int = 4
    batch_size: int = 4


# ---- mmf/models/tvr.py
class ClipSelfAttention(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.dim = dim

    def forward(self, x, mask):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(1, 2) / self.dim ** 0.5
        scores = scores.masked_fill(~mask[:, None, :], -1e9)  # fails-here
        return scores.softmax(-1) @ v


class VideoTextRetrieval(nn.Module):
    def __init__(self, clip_dim=48, vocab=100, dim=32):
        super().__init__()
        self.clip_proj = nn.Linear(clip_dim, dim)
        self.video_attn = ClipSelfAttention(dim)
        self.word_emb = nn.Embedding(vocab, dim)
        self.text_proj = nn.Linear(dim, dim)

    def forward(self, clips, clip_mask, query):
        v = self.video_attn(self.clip_proj(clips), clip_mask)
        v = (v * clip_mask[..., None]).sum(1) / clip_mask.sum(1, keepdim=True)
        t = self.text_proj(self.word_emb(query).mean(1))
        return F.normalize(v, dim=-1) @ F.normalize(t, dim=-1).T


# ---- mmf/trainers/core/training_loop.py
def run_training_loop(model, cfg):
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    for update in range(cfg.max_updates):
        clips = torch.randn(cfg.batch_size, 10, 48)
        clip_mask = torch.ones(cfg.batch_size, 10, dtype=torch.bool)
        clip_mask[:, 6 + update % 3:] = False
        query = torch.randint(0, 100, (cfg.batch_size, 7))
        with torch.autocast("cpu", dtype=torch.float16, enabled=cfg.fp16):  # root-cause
            sim = model(clips, clip_mask, query)
        loss = F.cross_entropy(sim.float() / 0.05, torch.arange(cfg.batch_size))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"update {update} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    run_training_loop(VideoTextRetrieval(), TrainingConfig())
