"""GPT-NeoX-like attention block whose rotary inverse frequencies are kept as a plain tensor attribute built from a float64 numpy array; the user calls model.float() expecting every tensor to become float32, but .float()/.half() only convert parameters and registered buffers, so the rotated queries and keys come out float64 and the attention-times-values einsum with the float32 values fails
source: https://github.com/huggingface/transformers/pull/22888
reported-error: a tensor stored as a plain attribute (norm_factor) kept its dtype after model.half(), giving "expected scalar type Half but found Float"; the fix turned it into a register_buffer so dtype conversions reach it
outcome: RuntimeError: expected scalar type Float but found Double at line 31
root-cause: line 21
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


class RotaryAttention(nn.Module):
    def __init__(self, dim=32, heads=4, max_positions=64):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        inv_freq = 1.0 / 10000 ** (np.arange(0, self.head_dim, 2) / self.head_dim)
        angles = np.outer(np.arange(max_positions), inv_freq)
        self.cos_cached = torch.from_numpy(np.cos(np.repeat(angles, 2, axis=1)))  # root-cause
        self.norm_factor = self.head_dim**0.5

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, self.head_dim).unbind(2)
        cos = self.cos_cached[:t, None, :]
        q, k = q * cos, k * cos
        scores = torch.einsum("bthd,bshd->bhts", q, k) / self.norm_factor
        attn = scores.softmax(-1)
        ctx = torch.einsum("bhts,bshd->bthd", attn, v).reshape(b, t, d)  # fails-here
        return self.out(ctx)


class TinyLM(nn.Module):
    def __init__(self, vocab=100, dim=32, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(RotaryAttention(dim) for _ in range(n_layers))
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h = self.embed(ids)
        for layer in self.layers:
            h = h + layer(h)
        return self.head(h)


model = TinyLM().float()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
ids = torch.randint(0, 100, (4, 16))
for step in range(3):
    logits = model(ids[:, :-1])
    loss = nn.functional.cross_entropy(logits.reshape(-1, 100), ids[:, 1:].reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
