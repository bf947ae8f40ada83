"""Whisper-style fp16 speech decoder whose causal-attention helper fills the masked attention weights with torch.finfo(weight.dtype).min, which fits in whatever dtype the weights have
source: https://github.com/dotnet/TorchSharp/issues/1135
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = {"n_vocab": 64, "n_text_ctx": 16, "n_state": 32, "n_head": 4, "n_layer": 2, "fp16": True}

# ---- utils.py


def causal_softmax(weight):
    mask = torch.ones_like(weight).triu(1).to(torch.bool)
    weight.masked_fill_(mask, torch.finfo(weight.dtype).min)
    return F.softmax(weight.float(), dim=-1).to(weight.dtype)


# ---- model.py
class MultiHeadAttention(nn.Module):
    def __init__(self, n_state, n_head):
        super().__init__()
        self.n_head = n_head
        self.query = nn.Linear(n_state, n_state)
        self.key = nn.Linear(n_state, n_state, bias=False)
        self.value = nn.Linear(n_state, n_state)
        self.out = nn.Linear(n_state, n_state)

    def forward(self, x):
        b, t, c = x.shape
        q = self.query(x).view(b, t, self.n_head, -1).transpose(1, 2)
        k = self.key(x).view(b, t, self.n_head, -1).transpose(1, 2)
        v = self.value(x).view(b, t, self.n_head, -1).transpose(1, 2)
        weight = q @ k.transpose(-1, -2) / math.sqrt(c // self.n_head)
        w = causal_softmax(weight)
        return self.out((w @ v).transpose(1, 2).reshape(b, t, c))


class ResidualAttentionBlock(nn.Module):
    def __init__(self, n_state, n_head):
        super().__init__()
        self.attn = MultiHeadAttention(n_state, n_head)
        self.attn_ln = nn.LayerNorm(n_state)
        self.mlp = nn.Sequential(nn.Linear(n_state, 4 * n_state), nn.GELU(), nn.Linear(4 * n_state, n_state))
        self.mlp_ln = nn.LayerNorm(n_state)

    def forward(self, x):
        x = x + self.attn(self.attn_ln(x))
        return x + self.mlp(self.mlp_ln(x))


class TextDecoder(nn.Module):
    def __init__(self, n_vocab, n_ctx, n_state, n_head, n_layer):
        super().__init__()
        self.token_embedding = nn.Embedding(n_vocab, n_state)
        self.positional_embedding = nn.Parameter(torch.randn(n_ctx, n_state) * 0.02)
        self.blocks = nn.ModuleList([ResidualAttentionBlock(n_state, n_head) for _ in range(n_layer)])
        self.ln = nn.LayerNorm(n_state)

    def forward(self, tokens):
        x = self.token_embedding(tokens) + self.positional_embedding[: tokens.shape[-1]]
        for block in self.blocks:
            x = block(x)
        x = self.ln(x)
        return x @ self.token_embedding.weight.t()


def greedy_decode(model, sot=1, eot=2, max_len=8):
    tokens = torch.tensor([[sot]])
    with torch.no_grad():
        for _ in range(max_len):
            logits = model(tokens)
            nxt = logits[:, -1].float().argmax(-1, keepdim=True)
            tokens = torch.cat([tokens, nxt], dim=1)
            if nxt.item() == eot:
                break
    return tokens


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TextDecoder(CONFIG["n_vocab"], CONFIG["n_text_ctx"], CONFIG["n_state"], CONFIG["n_head"], CONFIG["n_layer"])
    if CONFIG["fp16"]:
        model = model.half()
    model.eval()
    print("decoded:", greedy_decode(model).tolist())
