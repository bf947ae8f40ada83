"""Supervised fine-tuning recipe (NeMo-AutoModel-style YAML config turned into a dataclass): the model dtype is left at "auto", which resolves to the checkpoint's bfloat16, and the recipe builds plain torch.optim.AdamW over those bf16 parameters, so at lr=6e-6 almost every update rounds back to the same bf16 value and the weights silently stop moving
source: https://github.com/NVIDIA-NeMo/Automodel/pull/2379
reported-error: none raised; the guide's "Risky Pattern: torch AdamW with bf16 Model Storage": leaving the model dtype unset or "auto" resolves the resident parameters to bf16, and AdamW then keeps its EMA buffers in bf16 as well
outcome: ok (silent: the AdamW steps at line 53 leave almost every bf16 weight unchanged, printed as "weights moved after 20 steps: 1.02%" against 99.97% with float32 storage)
root-cause: line 38
expect: DG013
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class ModelConfig:
    hidden: int = 64
    vocab: int = 100
    dtype: str = "auto"
    checkpoint_dtype: str = "bfloat16"


@dataclass
class OptimConfig:
    lr: float = 6e-6
    weight_decay: float = 0.0
    betas: tuple = (0.9, 0.95)


# ---- recipes/llm/train_ft.py
def resolve_dtype(cfg):
    name = cfg.checkpoint_dtype if cfg.dtype == "auto" else cfg.dtype
    return getattr(torch, name)


def build_model(cfg):
    model = nn.Sequential(nn.Embedding(cfg.vocab, cfg.hidden), nn.Linear(cfg.hidden, cfg.hidden), nn.GELU(), nn.Linear(cfg.hidden, cfg.vocab))
    return model.to(dtype=resolve_dtype(cfg))  # root-cause


def build_optimizer(model, cfg):
    return torch.optim.AdamW(model.parameters(), lr=cfg.lr, betas=cfg.betas, weight_decay=cfg.weight_decay)


def train(model, optimizer, steps=20):
    before = [p.detach().clone() for p in model.parameters()]
    for step in range(steps):
        tokens = torch.randint(0, 100, (8, 17), generator=torch.Generator().manual_seed(step))
        logits = model(tokens[:, :-1])
        loss = F.cross_entropy(logits.float().reshape(-1, logits.shape[-1]), tokens[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
    moved = sum(int((p.detach() != b).sum()) for p, b in zip(model.parameters(), before))
    total = sum(p.numel() for p in model.parameters())
    return loss.item(), 100.0 * moved / total


if __name__ == "__main__":
    torch.manual_seed(0)
    model = build_model(ModelConfig())
    loss, moved = train(model, build_optimizer(model, OptimConfig()))
    print(f"loss {loss:.4f}; weights moved after 20 steps: {moved:.2f}% (param dtype {next(model.parameters()).dtype})")
