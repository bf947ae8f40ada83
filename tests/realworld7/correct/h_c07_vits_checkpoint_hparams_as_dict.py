"""VITS-style checkpoint that stores the hyper-parameters as a plain nested dict (HParams.to_dict()) so torch.load with the default weights_only=True reads it back
source: https://github.com/0Xiaohei0/LocalAIVtuber/issues/51
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn


class HParams:
    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, HParams(**v) if isinstance(v, dict) else v)

    def to_dict(self):
        return {k: v.to_dict() if isinstance(v, HParams) else v for k, v in self.__dict__.items()}


hps = HParams(train={"learning_rate": 2e-4, "betas": [0.8, 0.99]}, data={"n_vocab": 40}, model={"hidden_channels": 16})
net_g = nn.Sequential(nn.Embedding(hps.data.n_vocab, hps.model.hidden_channels), nn.Linear(hps.model.hidden_channels, 1))
optim_g = torch.optim.AdamW(net_g.parameters(), hps.train.learning_rate, betas=hps.train.betas)
net_g(torch.randint(0, 40, (2, 5))).pow(2).mean().backward()
optim_g.step()

ckpt = os.path.join(tempfile.mkdtemp(), "G_100.pth")
torch.save({"model": net_g.state_dict(), "optimizer": optim_g.state_dict(), "iteration": 100, "hps": hps.to_dict()}, ckpt)
state = torch.load(ckpt, map_location="cpu")
restored = HParams(**state["hps"])
net_g.load_state_dict(state["model"])
optim_g.load_state_dict(state["optimizer"])
print("resumed at", state["iteration"], "lr", restored.train.learning_rate)
