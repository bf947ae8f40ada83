"""Tiny LLM with bf16 autocast whose forward runs the lm_head inside the same autocast block; only the logits are upcast with .float() before the loss, which is computed outside
source: https://github.com/Open-Superintelligence-Lab/5-dollar-llm/pull/15
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=128, d=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.ff = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            x = self.emb(idx)
            x = self.ff(x)
            logits = self.lm_head(x)
        return logits.float()


torch.manual_seed(0)
model = TinyLM()
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
data = torch.randint(0, 128, (8, 33))
for step in range(3):
    logits = model(data[:, :-1])
    loss = nn.functional.cross_entropy(logits.reshape(-1, 128), data[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("step", step, "loss", loss.item(), logits.dtype)
