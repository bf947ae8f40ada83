"""Linformer-style causal language model in half precision whose causal mask fills future positions with float('-inf') (the linformer-pytorch fix): infinity exists in float16, and every query row keeps at least its own position, so softmax has no all -inf row
source: https://github.com/tatp22/linformer-pytorch/pull/19
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn

MASK_VALUE = float("-inf")


def gen_causal_mask(input_size, dim_k):
    return (torch.triu(torch.ones(input_size, dim_k)) == 1).transpose(0, 1) == 0


class LinearAttentionHead(nn.Module):
    def __init__(self, dim, seq_len, k):
        super().__init__()
        self.E = nn.Linear(seq_len, k, bias=False)
        self.F = nn.Linear(seq_len, k, bias=False)
        self.q, self.kp, self.v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.register_buffer("causal", gen_causal_mask(seq_len, k))

    def forward(self, x):
        K = self.E(self.kp(x).transpose(1, 2)).transpose(1, 2)
        V = self.F(self.v(x).transpose(1, 2)).transpose(1, 2)
        P_bar = self.q(x) @ K.transpose(1, 2) / x.shape[-1] ** 0.5
        P_bar = P_bar.masked_fill_(self.causal, MASK_VALUE)
        return torch.softmax(P_bar, dim=-1) @ V


class LinformerLM(nn.Module):
    def __init__(self, num_tokens=100, dim=32, seq_len=16, k=16):
        super().__init__()
        self.emb = nn.Embedding(num_tokens, dim)
        self.attn = LinearAttentionHead(dim, seq_len, k)
        self.to_logits = nn.Linear(dim, num_tokens)

    def forward(self, tokens):
        return self.to_logits(self.attn(self.emb(tokens)))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = LinformerLM().to(torch.float16)
    with torch.no_grad():
        logits = model(torch.randint(0, 100, (2, 16)))
    print("logits", tuple(logits.shape), logits.dtype, "finite:", bool(torch.isfinite(logits).all()))
