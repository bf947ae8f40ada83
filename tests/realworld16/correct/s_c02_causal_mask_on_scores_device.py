"""Attention reference whose causal_mask(L, S, device) helper receives the device of the scores, so the boolean mask for masked_fill is created next to query/key on any machine
source: https://github.com/InfiniTensor/llaisys/pull/11
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import math

import torch
import torch.nn as nn


def causal_mask(L, S, device):
    return torch.ones(L, S, dtype=torch.bool, device=device).tril(diagonal=S - L)


def self_attention(query, key, value):
    L, S = query.size(-2), key.size(-2)
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.size(-1))
    scores = scores.masked_fill(causal_mask(L, S, scores.device).logical_not(), float("-inf"))
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
        return x + self.out(self_attention(q, k, v).transpose(1, 2).reshape(B, T, D))


device = "cuda" if torch.cuda.is_available() else "cpu"
print("out", tuple(Block().to(device)(torch.randn(2, 10, 32, device=device)).shape))
