"""Peptide-sequencing model trained with early stopping; the best-checkpoint callback saves the hyper-parameter dict that includes the NumPy dtype used for the spectra (np.dtype("float32")), and resuming with the default weights_only=True torch.load rejects numpy.dtype
source: https://github.com/Noble-Lab/casanovo/pull/574
reported-error: _pickle.UnpicklingError: Weights only load failed ... Unsupported global: GLOBAL numpy.dtype was not an allowed global by default (fixed with torch.serialization.safe_globals([numpy.dtype]))
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy.dtype was not an allowed global by default. ... at line 65
root-cause: line 15
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

HPARAMS = {"n_peaks": 20, "dim": 32, "lr": 5e-3, "spectrum_dtype": np.dtype("float32"), "patience": 2}  # root-cause


def synthetic_spectra(n, hp, seed=0):
    rng = np.random.default_rng(seed)
    mz = rng.uniform(100, 1500, size=(n, hp["n_peaks"])).astype(hp["spectrum_dtype"])
    inten = rng.random(size=(n, hp["n_peaks"])).astype(hp["spectrum_dtype"])
    return torch.from_numpy(np.stack([mz / 1500.0, inten], axis=-1)), torch.from_numpy(rng.integers(0, 20, size=n))


class SpectrumEncoder(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.peak = nn.Linear(2, hp["dim"])
        self.head = nn.Linear(hp["dim"], 20)

    def forward(self, spectra):
        return self.head(torch.relu(self.peak(spectra)).mean(1))


class BestCheckpoint:
    def __init__(self, path, hp):
        self.path, self.hp, self.best = path, hp, float("inf")

    def __call__(self, model, val_loss):
        if val_loss < self.best:
            self.best = val_loss
            torch.save({"state_dict": model.state_dict(), "hyper_parameters": self.hp, "val_loss": val_loss}, self.path)


def fit(model, hp, ckpt_cb, epochs=6):
    opt = torch.optim.Adam(model.parameters(), lr=hp["lr"])
    x, y = synthetic_spectra(32, hp)
    vx, vy = synthetic_spectra(16, hp, seed=1)
    wait = 0
    for _ in range(epochs):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            val = nn.functional.cross_entropy(model(vx), vy).item()
        previous = ckpt_cb.best
        ckpt_cb(model, val)
        wait = 0 if val < previous else wait + 1
        if wait >= hp["patience"]:
            break


def resume(path):
    ckpt = torch.load(path)  # fails-here
    model = SpectrumEncoder(ckpt["hyper_parameters"])
    model.load_state_dict(ckpt["state_dict"])
    return model, ckpt["val_loss"]


if __name__ == "__main__":
    torch.manual_seed(0)
    path = os.path.join(tempfile.mkdtemp(), "best.ckpt")
    fit(SpectrumEncoder(HPARAMS), HPARAMS, BestCheckpoint(path, HPARAMS))
    model, val = resume(path)
    print(f"resumed best val {val:.4f}")
