"""Full fine-tune recipe (torchtune-like, single device) that loads the model in bfloat16 and steps AdamW directly on the bf16 weights; small updates round away
source: https://github.com/meta-pytorch/torchtune/issues/2254
reported-error: silent: very bad convergence with bf16 compared with fp32 (the bf16 run does not go below 0.7 loss)
outcome: ok (silent: after 30 AdamW steps at lr=2e-5 only 3017 of 33218 bfloat16 weights changed at all (all 33218 change with dtype fp32); the updates applied at line 55 round away)
root-cause: line 41
expect: DG013
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class RecipeConfig:
    dtype: str = "bf16"
    lr: float = 2e-5
    steps: int = 30
    batch_size: int = 8
    dim: int = 64


class Classifier(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.head = nn.Linear(dim, 2)

    def forward(self, x):
        return self.head(x + self.backbone(x))


class FullFinetuneRecipeSingleDevice:
    def __init__(self, cfg):
        self.cfg = cfg
        self._dtype = {"bf16": torch.bfloat16, "fp32": torch.float32}[cfg.dtype]

    def setup(self):
        torch.manual_seed(0)
        self._model = Classifier(self.cfg.dim).to(dtype=self._dtype)  # root-cause
        self._optimizer = torch.optim.AdamW(self._model.parameters(), lr=self.cfg.lr)
        self._initial = [p.detach().clone() for p in self._model.parameters()]

    def train(self):
        g = torch.Generator().manual_seed(1)
        w_true = torch.randn(self.cfg.dim, generator=g)
        for step in range(self.cfg.steps):
            x = torch.randn(self.cfg.batch_size, self.cfg.dim, generator=g)
            labels = (x @ w_true > 0).long()
            logits = self._model(x.to(self._dtype))
            loss = F.cross_entropy(logits.float(), labels)
            self._optimizer.zero_grad()
            loss.backward()
            self._optimizer.step()  # fails-here
        changed = sum((p != p0).sum().item() for p, p0 in zip(self._model.parameters(), self._initial))
        total = sum(p.numel() for p in self._initial)
        print(f"final loss {loss.item():.4f}; weights changed: {changed}/{total}")


if __name__ == "__main__":
    recipe = FullFinetuneRecipeSingleDevice(RecipeConfig())
    recipe.setup()
    recipe.train()
