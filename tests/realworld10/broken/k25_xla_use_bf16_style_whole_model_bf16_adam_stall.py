"""Trainer that emulates XLA_USE_BF16=1 on its own: with the environment flag set, the whole model is stored in bfloat16 and trained with Adam at lr=1e-4, so most updates are smaller than half a bfloat16 step and round away; the loss falls much more slowly than in float32
source: https://github.com/pytorch/xla/issues/3167
reported-error: with XLA_USE_BF16=1 training runs faster but the losses decrease much slower (3.42, 3.38, 2.94 ... against 1.48, 1.31 ... in float32)
outcome: ok (silent: after the Adam steps at line 38 only a fraction of the bfloat16 weights ever changed, printed as "weights changed: K/N" with K under half of N (N/N when USE_BF16=0))
root-cause: line 28
expect: DG013
"""
import os

import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU())
        self.head = nn.Linear(128, 10)

    def forward(self, x):
        return self.head(self.backbone(x))


class Trainer:
    def __init__(self, model, lr=1e-4):
        self.use_bf16 = os.environ.get("USE_BF16", "1") == "1"
        self.dtype = torch.bfloat16 if self.use_bf16 else torch.float32
        self.model = model.to(self.dtype)  # root-cause
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    def fit(self, x, y, steps=20):
        start = [p.detach().clone() for p in self.model.parameters()]
        x = x.to(self.dtype)
        for step in range(steps):
            loss = nn.functional.cross_entropy(self.model(x).float(), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()  # fails-here
        changed = sum(int((p != s).sum()) for p, s in zip(self.model.parameters(), start))
        total = sum(p.numel() for p in self.model.parameters())
        print(f"final loss {loss.item():.4f}, weights changed: {changed}/{total}")


torch.manual_seed(0)
x, y = torch.randn(256, 64), torch.randint(0, 10, (256,))
Trainer(Classifier()).fit(x, y)
