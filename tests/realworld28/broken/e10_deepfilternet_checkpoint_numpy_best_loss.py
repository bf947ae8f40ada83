"""Speech-enhancement training (DeepFilterNet df/checkpoint.py layout): write_cp stores the model state dict together with the epoch and the best validation loss, which comes out of np.mean over the validation batches as a NumPy float64; resuming with read_cp calls torch.load without weights_only under the PyTorch >= 2.6 default
source: https://github.com/Rikorose/DeepFilterNet/pull/653
reported-error: (PyTorch 2.6 changed torch.load's default to weights_only=True, so resuming a DeepFilterNet training run from its checkpoint fails; the PR passes weights_only=False explicitly)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 41
root-cause: line 34
expect: DG011
"""
import glob
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


class DfNet(nn.Module):
    def __init__(self, nb_erb=32, nb_df=16):
        super().__init__()
        self.enc = nn.GRU(nb_erb, 64, batch_first=True)
        self.erb_dec = nn.Linear(64, nb_erb)
        self.df_dec = nn.Linear(64, nb_df * 2)

    def forward(self, spec):
        h, _ = self.enc(spec)
        return torch.sigmoid(self.erb_dec(h)), self.df_dec(h)


# ---- df/checkpoint.py
def write_cp(obj, name, dirname, epoch, extension="ckpt", metric=None):
    cp_name = os.path.join(dirname, f"{name}_{epoch}.{extension}")
    state = {"model": obj.state_dict(), "epoch": epoch}
    if metric is not None:
        state["best_loss"] = metric  # root-cause
    torch.save(state, cp_name)


def read_cp(obj, name, dirname, epoch="latest", extension="ckpt"):
    checkpoints = sorted(glob.glob(os.path.join(dirname, f"{name}*.{extension}")))
    latest = checkpoints[-1]
    state = torch.load(latest, map_location="cpu")  # fails-here
    obj.load_state_dict(state["model"])
    return state["epoch"], state.get("best_loss", float("inf"))


def run_epoch(model, opt, train=True):
    losses = []
    for _ in range(3):
        spec = torch.rand(4, 20, 32)
        erb_mask, _ = model(spec)
        loss = nn.functional.mse_loss(erb_mask * spec, spec * 0.8)
        if train:
            opt.zero_grad()
            loss.backward()
            opt.step()
        losses.append(loss.item())
    return np.mean(losses)


if __name__ == "__main__":
    model_dir = tempfile.mkdtemp()
    model = DfNet()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    best = float("inf")
    for epoch in range(2):
        run_epoch(model, opt)
        val_loss = run_epoch(model, opt, train=False)
        if val_loss < best:
            best = val_loss
            write_cp(model, "model", model_dir, epoch, metric=best)
    resumed = DfNet()
    epoch, best = read_cp(resumed, "model", model_dir)
    print("resumed at epoch", epoch, "best", best)
