"""Symbolic music (MIDI event) encoder built from fairseq-style TransformerEncoderLayer blocks, run in fp16: the layer converts a user-supplied attention mask with attn_mask.masked_fill(attn_mask.to(torch.bool), -1e8), and because the mask is created from the half-precision activations (x.new_zeros), the fill value overflows float16
source: https://github.com/facebookresearch/fairseq/issues/3575
reported-error: RuntimeError: value cannot be converted to type at::Half without overflow: -1e+08 (fairseq/modules/transformer_layer.py line 128, attn_mask for the encoder in fp16 mode)
outcome: RuntimeError: value cannot be converted to type c10::Half without overflow at line 22
root-cause: line 40
expect: DG018
"""
import torch
import torch.nn as nn


# ---- fairseq/modules/transformer_layer.py
class TransformerEncoderLayer(nn.Module):
    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(dim, 4 * dim), nn.ReLU(), nn.Linear(4 * dim, dim))
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)

    def forward(self, x, attn_mask=None):
        if attn_mask is not None:
            attn_mask = attn_mask.masked_fill(attn_mask.to(torch.bool), -1e8)  # fails-here
        residual = x
        x, _ = self.self_attn(x, x, x, attn_mask=attn_mask, need_weights=False)
        x = self.norm1(residual + x)
        return self.norm2(x + self.ffn(x))


# ---- music/encoder.py
class MidiEventEncoder(nn.Module):
    def __init__(self, n_events=64, dim=32, layers=2, window=4):
        super().__init__()
        self.embed = nn.Embedding(n_events, dim)
        self.layers = nn.ModuleList([TransformerEncoderLayer(dim) for _ in range(layers)])
        self.window = window
        self.head = nn.Linear(dim, 8)

    def local_mask(self, x):
        t = x.shape[1]
        mask = x.new_zeros(t, t)  # root-cause
        idx = torch.arange(t)
        mask[(idx[:, None] - idx[None, :]).abs() > self.window] = 1
        return mask

    def forward(self, events):
        x = self.embed(events)
        mask = self.local_mask(x)
        for layer in self.layers:
            x = layer(x, attn_mask=mask)
        return self.head(x.mean(1))


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = MidiEventEncoder().half().eval()
    events = torch.randint(0, 64, (2, 16))
    with torch.no_grad():
        style_logits = encoder(events)
    print("style logits", style_logits.float().softmax(-1).argmax(-1).tolist())
