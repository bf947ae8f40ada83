"""MatGL-style PotentialLightningModule: save_hyperparameters() keeps the numpy element_refs array in the checkpoint's hyper_parameters, so resuming with Trainer.fit(ckpt_path=...) fails in torch.load under the weights_only=True default
source: https://github.com/materialyzeai/matgl/pull/802
reported-error: since torch 2.6 flipped torch.load's default to weights_only=True, resuming training via Trainer.fit(ckpt_path=...) fails with an UnpicklingError on those globals (optimizer/scheduler objects and the numpy element_refs array in hyper_parameters)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 42
root-cause: line 19
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


class PotentialModule(nn.Module):
    def __init__(self, element_refs, lr=1e-3, n_elements=4, d=16):
        super().__init__()
        self.hparams = {"element_refs": element_refs, "lr": lr, "n_elements": n_elements}  # root-cause
        self.model = nn.Sequential(nn.Embedding(n_elements, d), nn.Linear(d, 1))
        self.register_buffer("refs", torch.tensor(element_refs, dtype=torch.float32))

    def forward(self, species):
        return self.model(species).sum() + self.refs[species].sum()


def fit_reference_energies(n_elements=4, seed=0):
    rng = np.random.default_rng(seed)
    compositions = rng.integers(0, 5, (50, n_elements)).astype(np.float64)
    energies = compositions @ rng.normal(-3, 1, n_elements)
    return np.linalg.lstsq(compositions, energies, rcond=None)[0]


def save_lightning_checkpoint(module, optimizer, path, epoch):
    torch.save(
        {"epoch": epoch, "state_dict": module.state_dict(), "optimizer_states": [optimizer.state_dict()], "hyper_parameters": module.hparams},
        path,
    )


def resume(path):
    ckpt = torch.load(path)  # fails-here
    module = PotentialModule(**ckpt["hyper_parameters"])
    module.load_state_dict(ckpt["state_dict"])
    return module, ckpt["epoch"]


if __name__ == "__main__":
    module = PotentialModule(element_refs=fit_reference_energies())
    opt = torch.optim.Adam(module.parameters(), lr=module.hparams["lr"])
    loss = module(torch.tensor([0, 1, 1, 3])) ** 2
    loss.backward()
    opt.step()
    path = os.path.join(tempfile.mkdtemp(), "epoch=4.ckpt")
    save_lightning_checkpoint(module, opt, path, epoch=4)
    module, epoch = resume(path)
    print("resumed at epoch", epoch)
