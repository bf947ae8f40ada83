"""Tiny LLM speed-run trainer switched to bfloat16 autocast: forward_features() runs the embedding and transformer blocks inside torch.autocast("cpu", dtype=torch.bfloat16), but compute_loss() applies the float32 lm_head to the returned bf16 hidden states outside the autocast block
source: https://github.com/Open-Superintelligence-Lab/5-dollar-llm/pull/15
reported-error: PR "Using bfloat16 for autocast" (remove float16, use bfloat16); hidden states leaving the autocast region are bf16 (RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float)
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: c10::BFloat16 != float at line 42
root-cause: line 37
expect: DG017
"""
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        return x + self.ff(self.ln(x))


class TinyLM(nn.Module):
    def __init__(self, vocab=128, d=64, n_layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(Block(d) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(d)
        self.out_proj = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward_features(self, idx):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            x = self.emb(idx)
            for blk in self.blocks:
                x = blk(x)
            x = self.out_proj(self.ln_f(x))
        return x  # root-cause


def compute_loss(model, idx, targets):
    h = model.forward_features(idx)
    logits = model.lm_head(h)  # fails-here
    return nn.functional.cross_entropy(logits.float().reshape(-1, logits.size(-1)), targets.reshape(-1))


torch.manual_seed(0)
model = TinyLM()
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
data = torch.randint(0, 128, (8, 33))
for step in range(3):
    loss = compute_loss(model, data[:, :-1], data[:, 1:])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("step", step, "loss", loss.item())
