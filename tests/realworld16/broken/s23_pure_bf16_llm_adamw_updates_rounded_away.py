"""Small language-model trainer with a "pure bf16" option: setup_model(cfg) converts the whole model to bfloat16 and the optimizer is plain torch.optim.AdamW (no fp32 master weights); at lr=1e-4 most of the per-step updates are smaller than half a bfloat16 ulp and are rounded away
source: https://github.com/NVIDIA/apex/issues/1728
reported-error: none (FusedAdam does not allocate fp32 master weights for bfloat16 parameters)
outcome: ok (silent: the AdamW steps at line 53 leave most bfloat16 weights unchanged, printed as "weights changed: K/N" with K under N/2)
root-cause: line 39
expect: DG013
"""
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class TrainConfig:
    vocab: int = 64
    d_model: int = 64
    precision: str = "bf16-pure"
    lr: float = 1e-4
    steps: int = 20


class TinyLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = nn.Embedding(cfg.vocab, cfg.d_model)
        self.ff = nn.Sequential(nn.Linear(cfg.d_model, 4 * cfg.d_model), nn.GELU(), nn.Linear(4 * cfg.d_model, cfg.d_model))
        self.lm_head = nn.Linear(cfg.d_model, cfg.vocab)

    def forward(self, idx):
        h = self.emb(idx)
        return self.lm_head(h + self.ff(h))


def setup_model(cfg):
    torch.manual_seed(0)
    model = TinyLM(cfg)
    if cfg.precision == "bf16-pure":
        model = model.to(torch.bfloat16)  # root-cause
    return model


cfg = TrainConfig()
model = setup_model(cfg)
optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=0.0)
before = [p.detach().clone() for p in model.parameters()]
for step in range(cfg.steps):
    idx = torch.randint(0, cfg.vocab, (8, 16))
    logits = model(idx[:, :-1])
    loss = nn.functional.cross_entropy(logits.float().reshape(-1, cfg.vocab), idx[:, 1:].reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()  # fails-here
changed = sum(int((p != b).sum()) for p, b in zip(model.parameters(), before))
total = sum(p.numel() for p in model.parameters())
print(f"weights changed: {changed}/{total}")
