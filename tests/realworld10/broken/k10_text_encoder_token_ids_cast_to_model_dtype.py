"""Node-style text conditioner: the encoder is loaded in half precision and its encode() helper moves the token ids with .to(device=self.device, dtype=self.dtype), the same call it uses for float inputs, so the ids become float16 and nn.Embedding refuses them
source: https://github.com/Comfy-Org/ComfyUI/issues/7370
reported-error: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.cuda.HalfTensor instead (while checking arguments for embedding)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.HalfTensor instead (while checking arguments for embedding) at line 20
root-cause: line 35
expect: DG005
"""
import torch
import torch.nn as nn


class TinyTextEncoder(nn.Module):
    def __init__(self, vocab=512, dim=32, max_len=16):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, dim)
        self.position_embedding = nn.Parameter(torch.zeros(max_len, dim))
        self.layer = nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True)

    def forward(self, tokens):
        x = self.token_embedding(tokens) + self.position_embedding[: tokens.shape[1]]  # fails-here
        return self.layer(x)


class Conditioner:
    def __init__(self, dtype=torch.float16, device="cpu"):
        self.dtype, self.device = dtype, torch.device(device)
        self.encoder = TinyTextEncoder().to(device=self.device, dtype=self.dtype).eval()

    def tokenize(self, text, max_len=16):
        ids = [min(ord(c), 511) for c in text][:max_len]
        return [ids + [0] * (max_len - len(ids))]

    @torch.no_grad()
    def encode(self, text):
        tokens = torch.tensor(self.tokenize(text)).to(device=self.device, dtype=self.dtype)  # root-cause
        return self.encoder(tokens)


cond = Conditioner()
print(cond.encode("a photo of a cat").shape)
