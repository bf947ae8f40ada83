"""SimCLR pretraining in plain torch: a create_simclr() factory halves the projection MLP with .half() "to save memory for the large-batch similarity matrix", while the encoder and the augmented views stay float32; the float32 features reach the float16 projector
source: https://github.com/KeremTurgutlu/self_supervised/issues/55
reported-error: RuntimeError: expected scalar type Half but found Float
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Float and Half at line 41
root-cause: line 47
expect: DG004
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- augmentations.py
def augment(x, rng):
    flip = torch.from_numpy(rng.random(x.shape[0]) < 0.5)
    x = torch.where(flip.view(-1, 1, 1, 1), x.flip(-1), x)
    jitter = torch.from_numpy(rng.uniform(0.8, 1.2, (x.shape[0], 1, 1, 1)).astype(np.float32))
    return (x * jitter + 0.05 * torch.randn_like(x)).clamp(0, 1)


# ---- models.py
def create_encoder(width=32):
    return nn.Sequential(nn.Conv2d(3, width, 3, 2, 1), nn.BatchNorm2d(width), nn.ReLU(),
                         nn.Conv2d(width, 2 * width, 3, 2, 1), nn.BatchNorm2d(2 * width), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten())


def create_mlp_module(dim, hidden, out):
    return nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, out))


class SimCLRModel(nn.Module):
    def __init__(self, encoder, projector):
        super().__init__()
        self.encoder, self.projector = encoder, projector

    def forward(self, x):
        return self.projector(self.encoder(x))  # fails-here


def create_simclr(width=32, proj_dim=64, low_mem=True):
    projector = create_mlp_module(2 * width, 128, proj_dim)
    if low_mem:
        projector = projector.half()  # root-cause
    return SimCLRModel(create_encoder(width), projector)


# ---- losses.py
def nt_xent(z1, z2, temperature=0.5):
    z = F.normalize(torch.cat([z1, z2]).float(), dim=1)
    sim = z @ z.t() / temperature
    n = z1.shape[0]
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bs", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args([])
    rng = np.random.default_rng(0)
    images = torch.from_numpy(rng.random((128, 3, 32, 32)).astype(np.float32))
    model = create_simclr()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(args.epochs):
        for k in range(0, len(images), args.bs):
            xb = images[k:k + args.bs]
            loss = nt_xent(model(augment(xb, rng)), model(augment(xb, rng)))
            opt.zero_grad()
            loss.backward()
            opt.step()
        print("epoch", epoch, "nt-xent", round(loss.item(), 4))


if __name__ == "__main__":
    main()
