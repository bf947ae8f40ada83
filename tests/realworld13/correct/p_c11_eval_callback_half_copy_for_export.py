"""Trainer with an epoch-end callback that evaluates and exports a float16 copy made with copy.deepcopy(model).half(), leaving the trained float32 model and its AdamW state untouched, so training continues across epochs
source: https://github.com/LoganBooker/prodigy-plus-schedule-free/issues/10
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import copy

import torch
import torch.nn as nn


class FastEvalCallback:
    def on_epoch_end(self, trainer):
        fp16_model = copy.deepcopy(trainer.model).half().eval()
        with torch.no_grad():
            x = torch.randn(32, 10).half()
            acc = (fp16_model(x).argmax(1) == 0).float().mean().item()
        print(f"epoch {trainer.epoch}: fp16 val acc {acc:.3f}")


class Trainer:
    def __init__(self, model, callbacks):
        self.model, self.callbacks = model, callbacks
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        self.scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(self.optimizer, T_max=20)

    def fit(self, epochs, steps=5):
        for self.epoch in range(epochs):
            for _ in range(steps):
                loss = nn.functional.cross_entropy(self.model(torch.randn(16, 10)), torch.randint(0, 3, (16,)))
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.scheduler.step()
            for cb in self.callbacks:
                cb.on_epoch_end(self)


model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
Trainer(model, [FastEvalCallback()]).fit(epochs=3)
print("train dtype", next(model.parameters()).dtype)
