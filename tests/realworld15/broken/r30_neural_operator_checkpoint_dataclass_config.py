"""Neural-operator trainer whose save_every checkpoint bundles the model, optimizer and scheduler state with the run's TrainConfig dataclass instance; resume_from_dir() reloads it with the default torch.load, which refuses the __main__.TrainConfig global
source: https://github.com/neuraloperator/neuraloperator/issues/558
reported-error: UnpicklingError when resuming training from a saved checkpoint directory (weights-only load)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.TrainConfig was not an allowed global by default. ... at line 63
root-cause: line 48
expect: DG011
"""
import os
import tempfile
from dataclasses import dataclass, field

import torch
import torch.nn as nn


@dataclass
class TrainConfig:
    n_modes: int = 8
    width: int = 16
    lr: float = 1e-3
    n_epochs: int = 4
    save_every: int = 2
    tags: list = field(default_factory=lambda: ["darcy", "fno"])


class SpectralConv1d(nn.Module):
    def __init__(self, width, n_modes):
        super().__init__()
        self.n_modes = n_modes
        self.weight = nn.Parameter(torch.randn(width, width, n_modes, dtype=torch.cfloat) / width)

    def forward(self, x):
        x_ft = torch.fft.rfft(x)
        out = torch.zeros_like(x_ft)
        out[..., :self.n_modes] = torch.einsum("bix,iox->box", x_ft[..., :self.n_modes], self.weight)
        return torch.fft.irfft(out, n=x.size(-1))


class Trainer:
    def __init__(self, cfg, save_dir):
        self.cfg, self.save_dir = cfg, save_dir
        self.model = nn.Sequential(nn.Conv1d(1, cfg.width, 1), SpectralConv1d(cfg.width, cfg.n_modes), nn.Conv1d(cfg.width, 1, 1))
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=2)

    def save(self, epoch):
        state = {"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                 "scheduler": self.scheduler.state_dict(), "epoch": epoch, "config": self.cfg}  # root-cause
        torch.save(state, os.path.join(self.save_dir, "model_state.pt"))

    def train(self, x, y, start_epoch=0):
        for epoch in range(start_epoch, self.cfg.n_epochs):
            loss = nn.functional.mse_loss(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.scheduler.step()
            if (epoch + 1) % self.cfg.save_every == 0:
                self.save(epoch)
        return loss.item()

    def resume_from_dir(self, save_dir):
        state = torch.load(os.path.join(save_dir, "model_state.pt"))  # fails-here
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.scheduler.load_state_dict(state["scheduler"])
        return state["epoch"] + 1


save_dir = tempfile.mkdtemp()
x = torch.randn(8, 1, 64)
y = torch.cumsum(x, dim=-1) / 8
print("first run loss", Trainer(TrainConfig(), save_dir).train(x, y))
trainer = Trainer(TrainConfig(n_epochs=6), save_dir)
print("resumed run loss", trainer.train(x, y, start_epoch=trainer.resume_from_dir(save_dir)))
