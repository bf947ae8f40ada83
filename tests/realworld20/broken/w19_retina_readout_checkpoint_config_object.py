"""Retina neural-response model (core + readout) restored with a Lightning-like load_from_checkpoint(): the checkpoint's "hyper_parameters" holds the project's ReadoutConfig object (a ListConfig-style container of per-session settings), and the default weights_only=True torch.load refuses that global
source: https://github.com/open-retina/open-retina/pull/186
reported-error: UnifiedCoreReadout.load_from_checkpoint(local_path, map_location=device) -> _pickle.UnpicklingError: Weights only load failed ... WeightsUnpickler error: Unsupported global: GLOBAL omegaconf.listconfig.ListConfig was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.ReadoutConfig was not an allowed global by default. ... at line 40
root-cause: line 29
expect: DG011
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
        self.hparams = {"readout_cfg": readout_cfg, "hidden": hidden}  # root-cause

    def forward(self, movie, session):
        feat = self.core(movie).transpose(1, 2)
        return nn.functional.softplus(self.readouts[session](feat))

    def save_checkpoint(self, path):
        torch.save({"state_dict": self.state_dict(), "hyper_parameters": self.hparams}, path)

    @classmethod
    def load_from_checkpoint(cls, path, map_location="cpu"):
        ckpt = torch.load(path, map_location=map_location)  # fails-here
        model = cls(**ckpt["hyper_parameters"])
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
