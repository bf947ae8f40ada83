"""train_infos keep the learning rate as a Python float, so the checkpoint loads with weights_only=True
source: https://github.com/deepmodeling/deepmd-kit/pull/4147
reported-error: WeightsUnpickler error: Unsupported class numpy.core.multiarray.scalar
outcome: ok
root-cause: none
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


class EnergyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.fitting = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))
        self.train_infos = {"lr": 0.0, "step": 0}

    def get_extra_state(self):
        return {"train_infos": self.train_infos}

    def set_extra_state(self, state):
        self.train_infos = state["train_infos"]

    def forward(self, x):
        return self.fitting(x).sum(-2)


class LearningRateExp:
    def __init__(self, start_lr=1e-3, stop_lr=1e-8, decay_steps=5, stop_steps=100):
        self.start_lr = start_lr
        self.decay_rate = np.exp(np.log(stop_lr / start_lr) / (stop_steps / decay_steps))
        self.decay_steps = decay_steps

    def value(self, step):
        return self.start_lr * np.power(self.decay_rate, step // self.decay_steps)


def train(save_ckpt, num_steps=10):
    model = EnergyModel()
    lr_exp = LearningRateExp()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr_exp.start_lr)
    for step in range(num_steps):
        cur_lr = float(lr_exp.value(step))
        for g in optimizer.param_groups:
            g["lr"] = cur_lr
        coord = torch.randn(4, 6, 8)
        loss = (model(coord) - 1.0).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model.train_infos["lr"] = cur_lr
        model.train_infos["step"] = step
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, save_ckpt)


def restart(init_model):
    state_dict = torch.load(init_model, map_location="cpu", weights_only=True)
    model = EnergyModel()
    model.load_state_dict(state_dict["model"])
    print("resumed at step", model.train_infos["step"], "lr", model.train_infos["lr"])


if __name__ == "__main__":
    ckpt = os.path.join(tempfile.mkdtemp(), "model.ckpt.pt")
    train(ckpt)
    restart(ckpt)
