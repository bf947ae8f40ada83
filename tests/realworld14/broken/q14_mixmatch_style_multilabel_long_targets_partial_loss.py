"""Semi-supervised multi-label tagger: the loss registry maps "bce" to functools.partial(F.binary_cross_entropy_with_logits, pos_weight=...), and the labelled batches carry multi-hot targets built with torch.zeros(..., dtype=torch.long).scatter_(...), so the loss receives int64 targets
source: https://github.com/YU1ut/MixMatch-pytorch/pull/29
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 48
root-cause: line 23
expect: DG007
"""
import functools

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_TAGS = 6
LOSSES = {
    "bce": functools.partial(F.binary_cross_entropy_with_logits, pos_weight=torch.full((N_TAGS,), 2.0)),
    "mse": lambda logits, target: F.mse_loss(torch.sigmoid(logits), target),
}


def multi_hot(tag_lists):
    target = torch.zeros(len(tag_lists), N_TAGS, dtype=torch.long)  # root-cause
    for row, tags in enumerate(tag_lists):
        target[row].scatter_(0, torch.tensor(tags), 1)
    return target


def labelled_batches(rng, n_batches, bs=16):
    for _ in range(n_batches):
        x = torch.from_numpy(rng.normal(size=(bs, 20)).astype(np.float32))
        tags = [list(rng.choice(N_TAGS, rng.integers(1, 3), replace=False)) for _ in range(bs)]
        yield x, multi_hot(tags)


def unlabelled_batches(rng, n_batches, bs=16):
    for _ in range(n_batches):
        yield torch.from_numpy(rng.normal(size=(bs, 20)).astype(np.float32))


rng = np.random.default_rng(0)
model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, N_TAGS))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
sup_loss, cons_loss = LOSSES["bce"], LOSSES["mse"]
for (x, y), u in zip(labelled_batches(rng, 4), unlabelled_batches(rng, 4)):
    with torch.no_grad():
        pseudo = torch.sigmoid(model(u))
    loss = sup_loss(model(x), y) + 0.5 * cons_loss(model(u + 0.05 * torch.randn_like(u)), pseudo)  # fails-here
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
