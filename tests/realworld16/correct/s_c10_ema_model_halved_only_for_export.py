"""Action-prediction trainer with an EMA of the weights: evaluation uses the float32 EMA copy, and only after the last optimizer step is a deep copy of the EMA model converted with .half() for a float16 export; the trained model and its AdamW optimizer are never touched again
source: https://github.com/candle-org/MindAct/pull/862
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import copy
import io

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
            s.mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)


@torch.no_grad()
def evaluate(model, batches):
    return float(np.mean([(model(x).argmax(-1) == y).float().mean().item() for x, y in batches]))


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(24, 48), nn.ReLU(), nn.Linear(48, 5))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
ema = EMA(model)
batches = [(torch.randn(16, 24), torch.randint(0, 5, (16,))) for _ in range(4)]
for epoch in range(2):
    for x, y in batches:
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ema.update(model)
    print("epoch", epoch, "val acc (ema)", evaluate(ema.shadow, batches))
export = copy.deepcopy(ema.shadow).half()
buf = io.BytesIO()
torch.save(export.state_dict(), buf)
print("exported fp16 bytes", buf.tell())
