"""Linformer-style causal language model run in half precision: the attention module fills the future positions with a module-level MASK_VALUE of -1e10, written for float32 training, and the score tensor of the float16 model cannot hold it
source: https://github.com/tatp22/linformer-pytorch/pull/19
reported-error: The value that is used for masking is currently set to -1e10. In FP16 respectively mixed precision training this leads to numerical issues (fixed by using float('-inf') instead)
outcome: RuntimeError: value cannot be converted to type c10::Half without overflow at line 30
root-cause: line 11
expect: DG018
"""
import torch
import torch.nn as nn

MASK_VALUE = -1e10  # root-cause


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
        P_bar = P_bar.masked_fill_(self.causal, MASK_VALUE)  # fails-here
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
    tokens = torch.randint(0, 100, (2, 16))
    with torch.no_grad():
        logits = model(tokens)
    print("logits", tuple(logits.shape), logits.dtype)
