"""Transformer encoder inference in half precision where ScaledDotProductAttention fills masked scores with torch.finfo(scores.dtype).min, which is in range for float16 (and for float32 when the model is not halved)
source: https://github.com/ashtonjur/MachineTranslator/blob/450254f9f9f34887e2321dc7a11e3aa0ac3374db/ScaledDot.py
reported-error: none (fixed version: the fill value follows the scores dtype)
outcome: ok
root-cause: -
expect: none
"""
import math

import torch
import torch.nn as nn

PAD_IDX = 0


# ---- ScaledDot.py
class ScaledDotProductAttention(nn.Module):
    def __init__(self):
        super(ScaledDotProductAttention, self).__init__()

    def forward(self, query, key, value, mask=None):
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(query.size(-1))
        if mask is not None:
            scores = scores.masked_fill(mask == 0, torch.finfo(scores.dtype).min)
        attn_weights = torch.softmax(scores, dim=-1)
        output = torch.matmul(attn_weights, value)
        return output, attn_weights


# ---- MultiHeadAttention.py
class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.d_k, self.h = d_model // num_heads, num_heads
        self.w_q, self.w_k, self.w_v = nn.Linear(d_model, d_model), nn.Linear(d_model, d_model), nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)
        self.attention = ScaledDotProductAttention()

    def forward(self, q, k, v, mask=None):
        b = q.size(0)
        q, k, v = [w(x).view(b, -1, self.h, self.d_k).transpose(1, 2) for w, x in ((self.w_q, q), (self.w_k, k), (self.w_v, v))]
        out, _ = self.attention(q, k, v, mask)
        return self.w_o(out.transpose(1, 2).contiguous().view(b, -1, self.h * self.d_k))


# ---- EncoderAndDecoder.py
class Encoder(nn.Module):
    def __init__(self, vocab_size, d_model=32, num_heads=4):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model, padding_idx=PAD_IDX)
        self.self_attn = MultiHeadAttention(d_model, num_heads)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, src, src_mask):
        x = self.embed(src)
        return self.norm(x + self.self_attn(x, x, x, src_mask))


# ---- main.py (inference)
def make_src_mask(src):
    return (src != PAD_IDX).unsqueeze(1).unsqueeze(2)


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = Encoder(vocab_size=100).eval().half()
    src = torch.tensor([[5, 17, 42, 8, 0, 0], [9, 3, 77, 21, 64, 2]])
    with torch.no_grad():
        memory = encoder(src, make_src_mask(src))
    print("encoded", tuple(memory.shape), memory.dtype)
