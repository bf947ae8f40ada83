"""Fine-tuner whose load_model(cfg) casts the model to cfg.train_dtype ("bfloat16") to save memory, then trains it with torch.optim.AdamW at lr=1e-4; most bfloat16 weights never change because each update is below half a bfloat16 ulp
source: https://github.com/Nerogar/OneTrainer/issues/1005
reported-error: none raised (gradients and optimizer state stay in bf16, precision is lost during accumulation over many steps)
outcome: ok (silent: the AdamW steps at line 40 leave most bfloat16 weights unchanged, printed as "weights changed: K/N" with K under N/2)
root-cause: line 26
expect: DG013
"""
from dataclasses import dataclass

import torch
import torch.nn as nn

torch.manual_seed(0)
DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16}


@dataclass
class TrainConfig:
    train_dtype: str = "bfloat16"
    learning_rate: float = 1e-4
    steps: int = 20


def load_model(cfg: TrainConfig) -> nn.Module:
    model = nn.Sequential(nn.Linear(64, 128), nn.SiLU(), nn.Linear(128, 64))
    return model.to(DTYPES[cfg.train_dtype])  # root-cause


cfg = TrainConfig()
model = load_model(cfg)
dtype = DTYPES[cfg.train_dtype]
optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.learning_rate, weight_decay=0.0)
before = [p.detach().clone() for p in model.parameters()]
x = torch.randn(32, 64).to(dtype)
target = torch.randn(32, 64).to(dtype)
for step in range(cfg.steps):
    loss = nn.functional.mse_loss(model(x), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()  # fails-here
changed = sum(int((p.detach() != b).sum()) for p, b in zip(model.parameters(), before))
total = sum(p.numel() for p in model.parameters())
print(f"weights changed: {changed}/{total}", "final loss", loss.item())
