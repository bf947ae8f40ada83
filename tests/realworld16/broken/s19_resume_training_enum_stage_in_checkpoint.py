"""Experiment runner whose Trainer records the current TrainStage Enum member (PRETRAIN/FINETUNE) in every checkpoint so that a resumed run continues in the right stage; the resume path loads it with torch.load(..., map_location=device) and weights_only=True fails on the Enum class
source: https://github.com/lincc-frameworks/hyrax/pull/544
reported-error: _pickle.UnpicklingError: Weights only load failed. (fixed by loading the resume checkpoint with weights_only=False)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.TrainStage was not an allowed global by default. ... at line 44
root-cause: line 41
expect: DG011
"""
import enum
import os
import tempfile
from collections import OrderedDict

import torch
import torch.nn as nn


class TrainStage(enum.Enum):
    PRETRAIN = "pretrain"
    FINETUNE = "finetune"


class Trainer:
    def __init__(self, model, device="cpu"):
        self.model, self.device = model.to(device), device
        self.opt = torch.optim.SGD(model.parameters(), lr=0.05)
        self.stage = TrainStage.PRETRAIN
        self.epoch = 0

    def fit_epoch(self):
        x = torch.randn(32, 6, device=self.device)
        loss = (self.model(x) - x.sum(1, keepdim=True)).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.epoch += 1
        if self.epoch == 2:
            self.stage = TrainStage.FINETUNE

    def state(self):
        return OrderedDict(model=self.model.state_dict(), optimizer=self.opt.state_dict(),
                           epoch=self.epoch, stage=self.stage)  # root-cause

    def resume(self, path):
        ckpt = torch.load(path, map_location=self.device)  # fails-here
        self.model.load_state_dict(ckpt["model"])
        self.opt.load_state_dict(ckpt["optimizer"])
        self.epoch, self.stage = ckpt["epoch"], ckpt["stage"]


path = os.path.join(tempfile.mkdtemp(), "last.ckpt")
trainer = Trainer(nn.Linear(6, 1))
for _ in range(3):
    trainer.fit_epoch()
torch.save(trainer.state(), path)
fresh = Trainer(nn.Linear(6, 1))
fresh.resume(path)
print("resumed at epoch", fresh.epoch, "stage", fresh.stage)
