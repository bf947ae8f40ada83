"""Trainer with an on_epoch_end callback registry: a "bf16_after_warmup" callback casts the model with model.to(torch.bfloat16) once warmup is over, while the AdamW optimizer built at the start already holds float32 exp_avg state; the next step fails in exp_avg.lerp_
source: https://github.com/HomebrewML/HeavyBall/issues/2
reported-error: RuntimeError: expected dtype float for `end` but got dtype c10::BFloat16
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::BFloat16 at line 40
root-cause: line 16
expect: DG015
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


def bf16_after_warmup(trainer, epoch):
    if epoch + 1 == trainer.warmup_epochs:
        trainer.model.to(torch.bfloat16)  # root-cause
        trainer.dtype = torch.bfloat16


def log_epoch(trainer, epoch):
    print(f"epoch {epoch}: loss {trainer.last_loss:.4f} dtype {trainer.dtype}")


CALLBACKS = {"bf16_after_warmup": bf16_after_warmup, "log": log_epoch}


class Trainer:
    def __init__(self, model, callbacks, warmup_epochs=1):
        self.model, self.callbacks, self.warmup_epochs = model, callbacks, warmup_epochs
        self.opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        self.dtype, self.last_loss = torch.float32, float("nan")

    def fit(self, x, y, epochs):
        for epoch in range(epochs):
            for i in range(0, len(x), 16):
                xb, yb = x[i:i + 16].to(self.dtype), y[i:i + 16]
                loss = nn.functional.cross_entropy(self.model(xb).float(), yb)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()  # fails-here
                self.last_loss = loss.item()
            for name in self.callbacks:
                CALLBACKS[name](self, epoch)


model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 3))
x, y = torch.randn(64, 16), torch.randint(0, 3, (64,))
Trainer(model, ["bf16_after_warmup", "log"]).fit(x, y, epochs=3)
