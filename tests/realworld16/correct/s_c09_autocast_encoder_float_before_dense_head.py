"""Recommendation model whose encode() runs the encoder and projection under torch.autocast("cpu", dtype=torch.bfloat16) and returns h.float(), so the float32 dense head applied after the block gets float32 input
source: https://github.com/pytorch/pytorch/issues/111276
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn


class DemoModel(nn.Module):
    def __init__(self, d_model=32):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model=d_model, nhead=4, dim_feedforward=64, batch_first=True)
        self.transformer_encoder = nn.TransformerEncoder(layer, num_layers=1)
        self.pool_proj = nn.Linear(d_model, d_model)
        self.dense = nn.Linear(d_model, 10)

    def encode(self, x):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            h = self.pool_proj(self.transformer_encoder(x))
        return h.float()

    def forward(self, x):
        return self.dense(self.encode(x)[:, 0])


model = DemoModel()
out = model(torch.rand(4, 12, 32))
out.sum().backward()
print("logits", tuple(out.shape), out.dtype)
