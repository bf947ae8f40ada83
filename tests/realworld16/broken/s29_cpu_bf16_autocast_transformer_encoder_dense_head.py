"""Recommendation model run with CPU mixed precision: DemoModel.encode() runs the transformer encoder under torch.autocast("cpu", dtype=torch.bfloat16) and projects it with a Linear, returning the bfloat16 result; forward() applies the float32 dense head after the autocast block has closed
source: https://github.com/pytorch/pytorch/issues/111276
reported-error: mismatch in the dtype when using torch.cpu.amp.autocast (multi_head_attention_forward)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 27
root-cause: line 22
expect: DG017
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
            h = self.pool_proj(self.transformer_encoder(x))  # root-cause
        return h

    def forward(self, x):
        h = self.encode(x)
        return self.dense(h[:, 0])  # fails-here


model = DemoModel()
model.train()
out = model(torch.rand(4, 12, 32))
print("logits", tuple(out.shape), out.dtype)
