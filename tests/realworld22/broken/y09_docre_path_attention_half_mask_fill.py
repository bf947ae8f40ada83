"""Document-level relation extraction with evidence-path attention (MPR-style DocRE model) run in half precision: the path scorer masks missing reasoning paths with scores.masked_fill(~path_mask, -1e9), but the model was cast with .half() for speed, so the scores tensor is float16 and -1e9 is beyond its range
source: https://github.com/NVIDIA/apex/issues/1052
reported-error: RuntimeError: value cannot be converted to type at::Half without overflow: -1e+09 (models/MPR.py line 169, scores_mask = scores.masked_fill(~path_mask.unsqueeze(-1), -1e9); -1e4 works)
outcome: RuntimeError: value cannot be converted to type c10::Half without overflow at line 33
root-cause: line 56
expect: DG018
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

NEG_INF = -1e9


# ---- models/MPR.py
class PathReasoner(nn.Module):
    def __init__(self, hidden=32, n_rel=5):
        super().__init__()
        self.ent_proj = nn.Linear(hidden, hidden)
        self.path_proj = nn.Linear(3 * hidden, hidden)
        self.score = nn.Linear(hidden, 1)
        self.cls = nn.Linear(2 * hidden, n_rel)

    def forward(self, ent, path_mid, path_mask):
        h = torch.tanh(self.ent_proj(ent))
        n = h.shape[1]
        head = h.unsqueeze(2).unsqueeze(3).expand(-1, n, n, path_mid.shape[3], -1)
        tail = h.unsqueeze(1).unsqueeze(3).expand(-1, n, n, path_mid.shape[3], -1)
        paths = torch.tanh(self.path_proj(torch.cat([head, path_mid, tail], -1)))
        scores = self.score(paths)
        scores_mask = scores.masked_fill(~path_mask.unsqueeze(-1), NEG_INF)  # fails-here
        attn = F.softmax(scores_mask, dim=3)
        evidence = (attn * paths).sum(3)
        pair = torch.cat([h.unsqueeze(2).expand(-1, n, n, -1), evidence], -1)
        return self.cls(pair)


def make_document(batch=2, n_ent=4, n_paths=3, hidden=32, dtype=torch.float32):
    g = torch.Generator().manual_seed(0)
    ent = torch.randn(batch, n_ent, hidden, generator=g).to(dtype)
    path_mid = torch.randn(batch, n_ent, n_ent, n_paths, hidden, generator=g).to(dtype)
    path_mask = torch.rand(batch, n_ent, n_ent, n_paths, generator=g) > 0.3
    path_mask[..., 0] = True
    return ent, path_mid, path_mask


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fp16", action="store_true", default=True)
    args = parser.parse_args([])
    model = PathReasoner()
    dtype = torch.float32
    if args.fp16:
        model = model.half()  # root-cause
        dtype = torch.float16
    model.eval()
    ent, path_mid, path_mask = make_document(dtype=dtype)
    with torch.no_grad():
        logits = model(ent, path_mid, path_mask)
    print("relation logits", tuple(logits.shape), logits.dtype)


if __name__ == "__main__":
    main()
