"""Audio-diffusion training loop with a callback system whose HalfPrecisionAfterWarmup callback calls model.half() at the end of warmup to save memory; the AdamW optimizer already holds float32 moment buffers from the warmup steps, and the next optimizer.step() mixes them with float16 gradients
source: https://github.com/Stability-AI/stable-audio-tools/issues/198
reported-error: RuntimeError: Found dtype Float but expected Half (optimizer step with a mix of float32 and float16 state during training)
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::Half at line 55
root-cause: line 25
expect: DG015
"""
import math

import torch
import torch.nn as nn


class Callback:
    def on_step_end(self, trainer, step):
        pass


class HalfPrecisionAfterWarmup(Callback):
    def __init__(self, warmup_steps):
        self.warmup_steps = warmup_steps

    def on_step_end(self, trainer, step):
        if step + 1 == self.warmup_steps:
            trainer.model.half()  # root-cause
            trainer.dtype = torch.float16
            print(f"step {step}: switched model to float16")


class WaveDenoiser(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, ch, 5, padding=2), nn.SiLU(), nn.Conv1d(ch, ch, 5, padding=2), nn.SiLU(),
                                 nn.Conv1d(ch, 1, 5, padding=2))

    def forward(self, x, t):
        return self.net(x + t.view(-1, 1, 1))


class Trainer:
    def __init__(self, model, callbacks, lr=1e-4):
        self.model, self.callbacks, self.dtype = model, callbacks, torch.float32
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)

    def training_step(self, audio):
        t = torch.rand(audio.size(0))
        alpha, sigma = torch.cos(t * math.pi / 2), torch.sin(t * math.pi / 2)
        noise = torch.randn_like(audio)
        noised = audio * alpha.view(-1, 1, 1) + noise * sigma.view(-1, 1, 1)
        v = noise * alpha.view(-1, 1, 1) - audio * sigma.view(-1, 1, 1)
        pred = self.model(noised.to(self.dtype), t.to(self.dtype))
        loss = (pred.float() - v).pow(2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()  # fails-here
        return loss.item()

    def fit(self, steps):
        for step in range(steps):
            audio = torch.sin(torch.linspace(0, 40, 256)).repeat(4, 1, 1) * torch.rand(4, 1, 1)
            loss = self.training_step(audio)
            for cb in self.callbacks:
                cb.on_step_end(self, step)
            print(f"step {step}: loss {loss:.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    Trainer(WaveDenoiser(), [HalfPrecisionAfterWarmup(warmup_steps=2)]).fit(4)
