"""LoRA fine-tuning with a float16 base model whose adapters are created in float32 and see the input cast to their dtype, so GradScaler unscales float32 adapter gradients only
source: https://github.com/mst272/LLM-Dojo/issues/11
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainArgs:
    lora_rank: int = 4
    lora_alpha: int = 8
    learning_rate: float = 2e-4
    max_grad_norm: float = 1.0
    fp16: bool = True
    torch_dtype: torch.dtype = torch.float16
    steps: int = 3


# ---- utils/lora.py
class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r, alpha):
        super().__init__()
        self.base = base
        self.scaling = alpha / r
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features, dtype=torch.float32))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r, dtype=torch.float32))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))

    def forward(self, x):
        return self.base(x) + ((x.float() @ self.lora_A.t() @ self.lora_B.t()) * self.scaling).to(x.dtype)


def find_all_linear_names(model):
    return [n for n, m in model.named_modules() if isinstance(m, nn.Linear) and n != "lm_head"]


# ---- train.py
class TinyCausalLM(nn.Module):
    def __init__(self, vocab=40, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.q_proj = nn.Linear(dim, dim)
        self.o_proj = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h = self.embed(ids)
        h = h + self.o_proj(torch.tanh(self.q_proj(h)))
        return self.lm_head(h)


def create_model(args):
    model = TinyCausalLM().to(args.torch_dtype)
    for p in model.parameters():
        p.requires_grad_(False)
    for name in find_all_linear_names(model):
        setattr(model, name, LoRALinear(getattr(model, name), args.lora_rank, args.lora_alpha))
    return model


def train(args):
    model = create_model(args)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=args.learning_rate)
    scaler = torch.amp.GradScaler("cpu", enabled=args.fp16)
    g = torch.Generator().manual_seed(0)
    for step in range(args.steps):
        ids = torch.randint(0, 40, (4, 12), generator=g)
        logits = model(ids[:, :-1])
        loss = F.cross_entropy(logits.float().reshape(-1, 40), ids[:, 1:].reshape(-1))
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(params, args.max_grad_norm)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(TrainArgs())
