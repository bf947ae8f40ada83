"""Trainer with an epoch-end callback list: FastEvalCallback converts the model with model.half() to speed up validation and never converts it back, so the next AdamW step meets float32 exp_avg state and float16 gradients
source: https://github.com/LoganBooker/prodigy-plus-schedule-free/issues/10
reported-error: RuntimeError: expected dtype c10::Half for `end` but got dtype float (optimizer state and parameters/gradients in different dtypes)
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::Half at line 42
root-cause: line 14
expect: DG015
"""
import torch
import torch.nn as nn


class FastEvalCallback:
    def on_epoch_end(self, trainer):
        trainer.model.half()  # root-cause
        with torch.no_grad():
            x = torch.randn(32, 10).half()
            acc = (trainer.model(x).argmax(1) == 0).float().mean().item()
        print(f"epoch {trainer.epoch}: val acc {acc:.3f}")


class LoggingCallback:
    def on_epoch_end(self, trainer):
        print(f"epoch {trainer.epoch}: train loss {trainer.last_loss:.4f}")


class Trainer:
    def __init__(self, model, callbacks, steps_per_epoch=5):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
        self.scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(self.optimizer, T_max=20)
        self.callbacks = callbacks
        self.steps_per_epoch = steps_per_epoch
        self.epoch = 0

    def train_step(self):
        dtype = next(self.model.parameters()).dtype
        x = torch.randn(16, 10, dtype=dtype)
        y = torch.randint(0, 3, (16,))
        loss = nn.functional.cross_entropy(self.model(x).float(), y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()  # fails-here
        self.scheduler.step()
        self.last_loss = loss.item()

    def fit(self, epochs):
        for self.epoch in range(epochs):
            for _ in range(self.steps_per_epoch):
                self.train_step()
            for cb in self.callbacks:
                cb.on_epoch_end(self)


model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
Trainer(model, [LoggingCallback(), FastEvalCallback()]).fit(epochs=3)
