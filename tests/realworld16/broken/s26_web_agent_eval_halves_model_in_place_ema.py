"""Action-prediction trainer with an EMA copy of the weights: the @torch.no_grad() evaluate() helper calls model.half() for "fast fp16 validation" on the live model instead of a copy; the next epoch keeps stepping the same AdamW optimizer, whose float32 state no longer matches the half parameters
source: https://github.com/candle-org/MindAct/pull/862
reported-error: none quoted (the PR fixes a model.half() error)
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::Half at line 39
root-cause: line 28
expect: DG015
"""
import copy

import numpy as np
import torch
import torch.nn as nn


class EMA:
    def __init__(self, model, decay=0.99):
        self.shadow = copy.deepcopy(model).eval()
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.mul_(self.decay).add_(p.detach().to(s.dtype), alpha=1 - self.decay)


@torch.no_grad()
def evaluate(model, batches):
    model.half()  # root-cause
    accs = [(model(x.half()).argmax(-1) == y).float().mean().item() for x, y in batches]
    return float(np.mean(accs))


def train_epoch(model, optimizer, ema, batches):
    dtype = next(model.parameters()).dtype
    for x, y in batches:
        loss = nn.functional.cross_entropy(model(x.to(dtype)).float(), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
        ema.update(model)
    return loss.item()


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(24, 48), nn.ReLU(), nn.Linear(48, 5))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
ema = EMA(model)
batches = [(torch.randn(16, 24), torch.randint(0, 5, (16,))) for _ in range(4)]
for epoch in range(2):
    loss = train_epoch(model, optimizer, ema, batches)
    print("epoch", epoch, "loss", round(loss, 4), "val acc", evaluate(model, batches))
