"""Encoder self-attention with a padding mask (makeesyai/makeesy-deep-learning self_attention/create_atten_mask_encoder.py: src_mask from pad positions, attn_scores.masked_fill(src_mask == 1, value=-1e9)) run under float16 autocast: the attention scores come out of the autocast matmul in float16 and -1e9 overflows it
source: https://github.com/makeesyai/makeesy-deep-learning/blob/0fa519bd985324659e8042d7c3f852f782571911/self_attention/create_atten_mask_encoder.py
reported-error: (none filed; the file's masked_fill(src_mask == 1, value=-1e9) on float16 scores: RuntimeError: value cannot be converted to type c10::Half without overflow)
outcome: RuntimeError: value cannot be converted to type c10::Half without overflow at line 23
root-cause: line 12
expect: DG018
"""
import torch
import torch.nn as nn

pad = 0
NEG_INF = -1e9  # root-cause


class EncoderSelfAttention(nn.Module):
    def __init__(self, d_model=16):
        super().__init__()
        self.query, self.key, self.value = nn.Linear(d_model, d_model), nn.Linear(d_model, d_model), nn.Linear(d_model, d_model)
        self.scale = d_model ** -0.5

    def forward(self, x, src_mask):
        attn_scores = self.query(x) @ self.key(x).transpose(-1, -2) * self.scale
        attn_scores_masked = attn_scores.masked_fill(src_mask == 1, value=NEG_INF)  # fails-here
        return attn_scores_masked.softmax(-1) @ self.value(x)


src = torch.tensor([[1, 2, 3, 0, 0, 0], [1, 2, 3, 4, 0, 0]])
src_mask = (src == pad).type(torch.int16).unsqueeze(-2)
embed = nn.Embedding(10, 16, padding_idx=pad)
attn = EncoderSelfAttention()
with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):
    out = attn(embed(src), src_mask)
print(out.shape, out.dtype)
