"""Attention block after the PR's fix: the rotary cos table is still computed from a float64 numpy array but registered with register_buffer(..., persistent=False), so the model.float() call right after construction converts it to float32 together with the parameters
source: https://github.com/huggingface/transformers/pull/22888
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
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
        self.register_buffer("cos_cached", torch.from_numpy(np.cos(np.repeat(angles, 2, axis=1))), persistent=False)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, self.head_dim).unbind(2)
        cos = self.cos_cached[:t, None, :]
        attn = (torch.einsum("bthd,bshd->bhts", q * cos, k * cos) / self.head_dim**0.5).softmax(-1)
        return self.out(torch.einsum("bhts,bshd->bthd", attn, v).reshape(b, t, d))


model = nn.Sequential(nn.Embedding(100, 32), RotaryAttention(), nn.Linear(32, 100)).float()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
ids = torch.randint(0, 100, (4, 16))
for step in range(3):
    logits = model(ids[:, :-1])
    loss = nn.functional.cross_entropy(logits.reshape(-1, 100), ids[:, 1:].reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
