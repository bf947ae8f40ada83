"""BERT-pytorch style attention benchmarked in half precision whose single-head Attention picks the mask value from the scores dtype (-65504.0, the float16 minimum, for half scores and -1e9 otherwise, as in the torchbenchmark fix), so masked_fill never receives a value float16 cannot hold and softmax keeps every row finite
source: https://github.com/pytorch/benchmark/pull/794
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- bert_pytorch/model/attention/single.py
class Attention(nn.Module):
    def forward(self, query, key, value, mask=None, dropout=None):
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(query.size(-1))
        if mask is not None:
            if scores.dtype == torch.float16:
                min_mask = -65504.0
            else:
                min_mask = -1e9
            scores = scores.masked_fill(mask == 0, min_mask)
        p_attn = F.softmax(scores, dim=-1)
        if dropout is not None:
            p_attn = dropout(p_attn)
        return torch.matmul(p_attn, value), p_attn


# ---- bert_pytorch/model/attention/multi_head.py
class MultiHeadedAttention(nn.Module):
    def __init__(self, h, d_model, dropout=0.1):
        super().__init__()
        self.d_k, self.h = d_model // h, h
        self.linear_layers = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(3)])
        self.output_linear = nn.Linear(d_model, d_model)
        self.attention = Attention()
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, query, key, value, mask=None):
        b = query.size(0)
        query, key, value = [l(x).view(b, -1, self.h, self.d_k).transpose(1, 2) for l, x in zip(self.linear_layers, (query, key, value))]
        x, _ = self.attention(query, key, value, mask=mask, dropout=self.dropout)
        return self.output_linear(x.transpose(1, 2).contiguous().view(b, -1, self.h * self.d_k))


class BERTEncoder(nn.Module):
    def __init__(self, vocab=100, hidden=32, heads=4):
        super().__init__()
        self.embedding = nn.Embedding(vocab, hidden, padding_idx=0)
        self.attention = MultiHeadedAttention(heads, hidden)
        self.norm = nn.LayerNorm(hidden)

    def forward(self, x):
        mask = (x > 0).unsqueeze(1).repeat(1, x.size(1), 1).unsqueeze(1)
        h = self.embedding(x)
        return self.norm(h + self.attention(h, h, h, mask=mask))


# ---- torchbenchmark/models/BERT_pytorch/__init__.py
def run_eval(precision="fp16"):
    model = BERTEncoder().eval()
    if precision == "fp16":
        model = model.half()
    tokens = torch.randint(1, 100, (4, 10))
    tokens[:, 7:] = 0
    with torch.no_grad():
        out = model(tokens)
    return out.dtype, bool(torch.isfinite(out).all())


if __name__ == "__main__":
    torch.manual_seed(0)
    print("fp16 output", run_eval("fp16"))
    print("fp32 output", run_eval("fp32"))
