"""SFT recipe with an xtuner-like AdamWConfig: the config class defaults foreach=True (the faster multi-tensor path on CPU and GPU), the recipe turns on the newly exposed fused=True, and build_optimizer forwards both flags to torch.optim.AdamW, which rejects the combination
source: https://github.com/InternLM/xtuner/pull/2078
reported-error: (PR) expose the fused setting through AdamWConfig and reject incompatible foreach/fused combinations
outcome: RuntimeError: `fused` and `foreach` cannot be `True` together. at line 26
root-cause: line 31
expect: DG016
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- xtuner/v1/config/optim.py
@dataclass
class AdamWConfig:
    lr: float = 2e-5
    betas: tuple = (0.9, 0.95)
    weight_decay: float = 0.01
    eps: float = 1e-8
    foreach: bool = True
    fused: bool = False

    def build(self, params):
        return torch.optim.AdamW(params, lr=self.lr, betas=self.betas, weight_decay=self.weight_decay,  # fails-here
                                 eps=self.eps, foreach=self.foreach, fused=self.fused)


# ---- examples/sft_recipe.py
optim_cfg = AdamWConfig(lr=1e-4, fused=True)  # root-cause


class TinyLM(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.head(h)


def sft_loop(model, optimizer, steps=3):
    g = torch.Generator().manual_seed(0)
    for step in range(steps):
        ids = torch.randint(0, 64, (4, 12), generator=g)
        labels = ids.roll(-1, dims=1)
        labels[:, :4] = -100
        loss = F.cross_entropy(model(ids).flatten(0, 1), labels.flatten(), ignore_index=-100)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyLM()
    sft_loop(model, optim_cfg.build(model.parameters()))
