"""Text-recognition decoder (a TorchSharp port of a PyTorch OCR model, written back in Python) that builds its self-attention bias by filling the upper triangle of a half-precision score matrix with -finfo(float32).max, taken from a helper that hard-codes float32's limits
source: https://github.com/dotnet/TorchSharp/issues/1135
reported-error: value cannot be converted to type at::Half without overflow (weight.masked_fill_(mask, -torch.finfo(torch.float32).max) on a half weight; fixed with negative infinity)
outcome: RuntimeError: value cannot be converted to type c10::Half without overflow at line 26
root-cause: line 13
expect: DG018
"""
import torch
import torch.nn as nn


def mask_min_value():
    return -torch.finfo(torch.float32).max  # root-cause


class DecoderSelfAttention(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        weight = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
        mask = torch.ones_like(weight).triu(1).to(torch.bool)
        weight.masked_fill_(mask, mask_min_value())  # fails-here
        return self.proj(torch.softmax(weight, dim=-1) @ v)


class OCRDecoder(nn.Module):
    def __init__(self, charset=80, dim=32):
        super().__init__()
        self.emb = nn.Embedding(charset, dim)
        self.attn = DecoderSelfAttention(dim)
        self.cls = nn.Linear(dim, charset)

    def forward(self, tokens):
        return self.cls(self.attn(self.emb(tokens)))


def greedy_decode(model, steps=6):
    tokens = torch.zeros(1, 1, dtype=torch.long)
    with torch.no_grad():
        for _ in range(steps):
            nxt = model(tokens)[:, -1].argmax(-1, keepdim=True)
            tokens = torch.cat([tokens, nxt], dim=1)
    return tokens


if __name__ == "__main__":
    torch.manual_seed(0)
    model = OCRDecoder().half().eval()
    print("decoded ids", greedy_decode(model).tolist())
