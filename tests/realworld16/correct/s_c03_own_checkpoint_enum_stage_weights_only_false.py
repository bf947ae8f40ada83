"""Experiment runner that resumes from the checkpoint it has just written itself (TrainStage Enum member included) with torch.load(path, map_location=device, weights_only=False): a trusted local file
source: https://github.com/lincc-frameworks/hyrax/pull/544
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import enum
import os
import tempfile

import torch
import torch.nn as nn


class TrainStage(enum.Enum):
    PRETRAIN = "pretrain"
    FINETUNE = "finetune"


def save(path, model, opt, epoch, stage):
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": epoch, "stage": stage}, path)


def resume(path, model, opt, device="cpu"):
    ckpt = torch.load(path, map_location=device, weights_only=False)
    model.load_state_dict(ckpt["model"])
    opt.load_state_dict(ckpt["optimizer"])
    return ckpt["epoch"], ckpt["stage"]


model = nn.Linear(6, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(3):
    x = torch.randn(32, 6)
    loss = (model(x) - x.sum(1, keepdim=True)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
path = os.path.join(tempfile.mkdtemp(), "last.ckpt")
save(path, model, opt, 3, TrainStage.FINETUNE)
print("resumed", resume(path, nn.Linear(6, 1), torch.optim.SGD(model.parameters(), lr=0.05)))
