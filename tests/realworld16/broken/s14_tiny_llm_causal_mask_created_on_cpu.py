"""Teaching-framework attention reference (self_attention(query, key, value)) that builds its causal temp_mask with torch.ones(L, S, dtype=torch.bool).tril(...) on the default device; with CUDA query/key tensors the masked_fill mixes a CPU mask into CUDA scores
source: https://github.com/InfiniTensor/llaisys/pull/11
reported-error: RuntimeError: expected self and mask to be on the same device, but got mask on cpu and self on cuda:0
outcome: cuda-only: RuntimeError: expected self and mask to be on the same device, but got mask on cpu and self on cuda:0 (the causal mask stays on the CPU; not run on a GPU here) at line 23; on CPU: ok
root-cause: line 15
expect: DG009
"""
import math

import torch
import torch.nn as nn


def causal_mask(L, S):
    return torch.ones(L, S, dtype=torch.bool).tril(diagonal=S - L)  # root-cause


def self_attention(query, key, value, scale=None):
    L, S = query.size(-2), key.size(-2)
    scale = scale or 1.0 / math.sqrt(query.size(-1))
    scores = query @ key.transpose(-2, -1) * scale
    temp_mask = causal_mask(L, S)
    scores = scores.masked_fill(temp_mask.logical_not(), float("-inf"))  # fails-here
    return torch.softmax(scores, dim=-1) @ value


class Block(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        y = self_attention(q, k, v).transpose(1, 2).reshape(B, T, D)
        return x + self.out(y)


device = "cuda" if torch.cuda.is_available() else "cpu"
block = Block().to(device)
x = torch.randn(2, 10, 32, device=device)
print("out", tuple(block(x).shape))
