"""Decoder-only language model run in float16 whose extended attention mask is built from torch.finfo(dtype).min of the model's own dtype (the transformers convention after the "-1e4 as attn mask" fix), so the additive mask is representable in half, and the attention scores are upcast to float32 before softmax so padded rows cannot produce NaN
source: https://github.com/huggingface/transformers/pull/17306
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn


# ---- modeling_utils.py
def get_extended_attention_mask(attention_mask, dtype):
    b, t = attention_mask.shape
    causal = torch.tril(torch.ones(t, t, dtype=torch.bool))
    allowed = causal[None, None] & attention_mask[:, None, None, :].bool()
    extended = torch.zeros(b, 1, t, t, dtype=dtype)
    return extended.masked_fill(~allowed, torch.finfo(dtype).min)


# ---- modeling_tiny.py
class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, extended_mask):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / self.head_dim ** 0.5 + extended_mask
        probs = torch.softmax(scores.float(), dim=-1).to(v.dtype)
        return self.out((probs @ v).transpose(1, 2).reshape(b, t, d))


class TinyDecoder(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.attn = SelfAttention(dim, heads)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, input_ids, attention_mask):
        h = self.embed(input_ids)
        mask = get_extended_attention_mask(attention_mask, dtype=h.dtype)
        return self.lm_head(h + self.attn(h, mask))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyDecoder().half().eval()
    input_ids = torch.randint(1, 64, (2, 8))
    attention_mask = torch.ones(2, 8, dtype=torch.long)
    attention_mask[1, :3] = 0  # left padding
    with torch.no_grad():
        logits = model(input_ids, attention_mask)
    print("logits", logits.dtype, "finite:", bool(torch.isfinite(logits).all()))
