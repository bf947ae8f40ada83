"""Tabular foundation-model training loop (TFM-Playground-style): the checkpoint also stores the numpy random state from np.random.get_state() so prior sampling resumes identically, and the resume path uses torch.load with the weights_only=True default
source: https://github.com/automl/TFM-Playground/pull/52
reported-error: weights_only=False was introduced for including the numpy random state in the checkpoint (removed in 555fe13; the PR then drops weights_only=False)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 45
root-cause: line 37
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


def sample_prior_batch(batch=16, n_feat=8):
    x = np.random.normal(size=(batch, n_feat)).astype(np.float32)
    w = np.random.normal(size=(n_feat,)).astype(np.float32)
    return torch.from_numpy(x), torch.from_numpy(x @ w)


class TinyTFM(nn.Module):
    def __init__(self, n_feat=8, d=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_feat, d), nn.GELU(), nn.Linear(d, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def save_checkpoint(path, model, optimizer, step):
    torch.save(
        {
            "model": model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "step": step,
            "numpy_rng_state": np.random.get_state(),  # root-cause
            "torch_rng_state": torch.get_rng_state(),
        },
        path,
    )


def load_checkpoint(path, model, optimizer):
    ckpt = torch.load(path)  # fails-here
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    np.random.set_state(ckpt["numpy_rng_state"])
    torch.set_rng_state(ckpt["torch_rng_state"])
    return ckpt["step"]


def train(steps, model, optimizer, start=0):
    for step in range(start, steps):
        x, y = sample_prior_batch()
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return step


if __name__ == "__main__":
    np.random.seed(0)
    path = os.path.join(tempfile.mkdtemp(), "checkpoint.pth")
    model = TinyTFM()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    save_checkpoint(path, model, opt, train(5, model, opt))
    model2 = TinyTFM()
    opt2 = torch.optim.AdamW(model2.parameters(), lr=1e-3)
    start = load_checkpoint(path, model2, opt2)
    print("finished at step", train(10, model2, opt2, start=start + 1))
