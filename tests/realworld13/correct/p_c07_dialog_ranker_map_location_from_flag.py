"""Dialog response ranker whose Scorer.load() passes map_location derived from the --cpu flag (torch.device("cpu") or "cuda" only when available) and weights_only=True, for a checkpoint with cuda:0 storage tags
source: https://github.com/golsun/DialogRPT/issues/7
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn
from torch import serialization


class Scorer(nn.Module):
    def __init__(self, vocab=500, dim=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.out = nn.Linear(dim, 1)

    def forward(self, ids):
        return self.out(self.emb(ids)).squeeze(-1)

    def load(self, path, device):
        self.load_state_dict(torch.load(path, map_location=device, weights_only=True))


def save_as_gpu_checkpoint(model, path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(model.state_dict(), path)
    finally:
        serialization.location_tag = original


ckpt = os.path.join(tempfile.mkdtemp(), "updown.pth")
save_as_gpu_checkpoint(Scorer(), ckpt)
use_cpu = True
device = torch.device("cpu") if use_cpu or not torch.cuda.is_available() else torch.device("cuda")
ranker = Scorer()
ranker.load(ckpt, device)
ranker.to(device).eval()
print("scores", ranker(torch.randint(0, 500, (3, 12), device=device)).tolist())
