"""Click-through-rate regressor: features and target are read with np.loadtxt from an in-memory log; load_split() casts only the features to float32, the CTR target stays float64, so F.mse_loss silently promotes and the whole loss graph runs in float64
source: https://github.com/mlcommons/algorithmic-efficiency/pull/525
reported-error: none raised (loss computed in float64; fixed by casting the loss inputs to float32)
outcome: ok (silent: F.mse_loss(pred, ctr) at line 38 returns a float64 loss, printed as "loss dtype torch.float64")
root-cause: line 24
expect: DG008
"""
import io

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(0)
log = io.StringIO("\n".join(
    " ".join(f"{v:.4f}" for v in np.append(rng.random(8), rng.beta(1, 20))) for _ in range(256)
))


def load_split(fh):
    table = np.loadtxt(fh)
    features = torch.from_numpy(table[:, :8].astype(np.float32))
    ctr = torch.from_numpy(table[:, 8])  # root-cause
    return features, ctr


def iterate(features, ctr, batch_size=64):
    perm = torch.randperm(len(ctr))
    for i in range(0, len(ctr), batch_size):
        idx = perm[i:i + batch_size]
        yield features[idx], ctr[idx]


def train_one_epoch(model, features, ctr, opt):
    for xb, yb in iterate(features, ctr):
        pred = torch.sigmoid(model(xb).squeeze(-1))
        loss = F.mse_loss(pred, yb)  # fails-here
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss


features, ctr = load_split(log)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss = train_one_epoch(model, features, ctr, opt)
print("loss", round(loss.item(), 6), "loss dtype", loss.dtype)
