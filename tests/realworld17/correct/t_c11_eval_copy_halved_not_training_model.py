"""Trainer whose end-of-epoch export halves a deep copy of the model (copy.deepcopy(model).half()) for a fast float16 evaluation, leaving the trained float32 model and its Adam state untouched
source: https://github.com/NVIDIA/apex/issues/798
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(128, 20)
y = (x[:, 0] > 0).long()

for epoch in range(3):
    for i in range(0, 128, 32):
        loss = nn.functional.cross_entropy(model(x[i:i + 32]), y[i:i + 32])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        export = copy.deepcopy(model).half().eval()
        acc = (export(x.half()).argmax(1) == y).float().mean().item()
    print("epoch", epoch, "loss", round(loss.item(), 4), "fp16 val acc", acc)
