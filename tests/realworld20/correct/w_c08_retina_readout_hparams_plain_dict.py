"""Retina core-readout model whose checkpoint stores the readout configuration as plain lists and dicts (rebuilt into ReadoutConfig on load), so the default weights_only=True torch.load accepts it
source: https://github.com/open-retina/open-retina/pull/186
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn


# ---- openretina/utils/config.py
class ReadoutConfig:
    def __init__(self, sessions, n_neurons):
        self.sessions = list(sessions)
        self.n_neurons = dict(zip(sessions, n_neurons))


# ---- openretina/models/core_readout.py
class CoreReadout(nn.Module):
    def __init__(self, readout_cfg, hidden=16):
        super().__init__()
        self.core = nn.Sequential(nn.Conv3d(2, hidden, (3, 5, 5), padding=(1, 2, 2)), nn.ELU(),
                                  nn.AdaptiveAvgPool3d((None, 1, 1)), nn.Flatten(2))
        self.readouts = nn.ModuleDict({s: nn.Linear(hidden, n) for s, n in readout_cfg.n_neurons.items()})
        self.hparams = {"sessions": readout_cfg.sessions, "n_neurons": [readout_cfg.n_neurons[s] for s in readout_cfg.sessions], "hidden": hidden}

    def forward(self, movie, session):
        feat = self.core(movie).transpose(1, 2)
        return nn.functional.softplus(self.readouts[session](feat))

    def save_checkpoint(self, path):
        torch.save({"state_dict": self.state_dict(), "hyper_parameters": self.hparams}, path)

    @classmethod
    def load_from_checkpoint(cls, path, map_location="cpu"):
        ckpt = torch.load(path, map_location=map_location)
        hp = ckpt["hyper_parameters"]
        model = cls(ReadoutConfig(hp["sessions"], hp["n_neurons"]), hidden=hp["hidden"])
        model.load_state_dict(ckpt["state_dict"])
        return model


if __name__ == "__main__":
    cfg = ReadoutConfig(["2021-03-01_1", "2021-03-02_2"], [41, 37])
    path = os.path.join(tempfile.mkdtemp(), "hoefling_2024_core_readout.ckpt")
    CoreReadout(cfg).save_checkpoint(path)
    model = CoreReadout.load_from_checkpoint(path, map_location="cpu")
    with torch.no_grad():
        rates = model(torch.rand(1, 2, 30, 18, 16), "2021-03-01_1")
    print("predicted firing rates", tuple(rates.shape))
