"""VITS-style TTS training utilities: save_checkpoint stores the HParams object next to the weights, and load_checkpoint reloads the file with torch.load's default weights_only=True
source: https://github.com/0Xiaohei0/LocalAIVtuber/issues/51
reported-error: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL utils.HParams was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.HParams was not an allowed global by default. ... at line 54
root-cause: line 50
expect: DG011
"""
import json
import os
import tempfile

import torch
import torch.nn as nn


class HParams:
    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            if isinstance(v, dict):
                v = HParams(**v)
            self[k] = v

    def keys(self):
        return self.__dict__.keys()

    def __setitem__(self, key, value):
        setattr(self, key, value)

    def __getitem__(self, key):
        return getattr(self, key)


def get_hparams_from_file(config_path):
    with open(config_path) as f:
        return HParams(**json.load(f))


class SynthesizerTrn(nn.Module):
    def __init__(self, n_vocab, inter_channels, hidden_channels):
        super().__init__()
        self.enc_p = nn.Sequential(nn.Embedding(n_vocab, hidden_channels), nn.Linear(hidden_channels, inter_channels))
        self.dec = nn.Linear(inter_channels, 1)

    def forward(self, x):
        return self.dec(torch.tanh(self.enc_p(x)))


def save_checkpoint(model, optimizer, learning_rate, iteration, hps, checkpoint_path):
    torch.save({"model": model.state_dict(), "iteration": iteration, "optimizer": optimizer.state_dict(),
                "learning_rate": learning_rate, "hps": hps}, checkpoint_path)  # root-cause


def load_checkpoint(checkpoint_path, model, optimizer=None):
    checkpoint_dict = torch.load(checkpoint_path, map_location="cpu")  # root-cause-alt # fails-here
    model.load_state_dict(checkpoint_dict["model"])
    if optimizer is not None:
        optimizer.load_state_dict(checkpoint_dict["optimizer"])
    return model, optimizer, checkpoint_dict["learning_rate"], checkpoint_dict["iteration"]


model_dir = tempfile.mkdtemp()
config_path = os.path.join(model_dir, "config.json")
with open(config_path, "w") as f:
    json.dump({"train": {"learning_rate": 2e-4, "betas": [0.8, 0.99]}, "data": {"n_vocab": 40},
               "model": {"inter_channels": 16, "hidden_channels": 16}}, f)
hps = get_hparams_from_file(config_path)
net_g = SynthesizerTrn(hps.data.n_vocab, **hps.model.__dict__)
optim_g = torch.optim.AdamW(net_g.parameters(), hps.train.learning_rate, betas=hps.train.betas)
loss = net_g(torch.randint(0, 40, (2, 5))).pow(2).mean()
loss.backward()
optim_g.step()
ckpt = os.path.join(model_dir, "G_100.pth")
save_checkpoint(net_g, optim_g, hps.train.learning_rate, 100, hps, ckpt)
net_g, optim_g, lr, it = load_checkpoint(ckpt, SynthesizerTrn(hps.data.n_vocab, **hps.model.__dict__), optim_g)
print("resumed at iteration", it)
