"""Molecule property model trained with CPU bf16 autocast: encode() runs the message-passing layers inside torch.autocast and returns the bf16 node states; the float32 readout MLP is called outside the autocast block in forward()
source: https://github.com/hpcaitech/ColossalAI/issues/6169
reported-error: RuntimeError: mat1 and mat2 must have the same dtype, but got Float and BFloat16
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 51
root-cause: line 47
expect: DG017
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def ring_molecule(n, rng):
    src = np.arange(n)
    dst = (src + 1) % n
    edge_index = np.concatenate([np.stack([src, dst]), np.stack([dst, src])], 1)
    x = rng.normal(size=(n, 8)).astype(np.float32)
    return torch.from_numpy(x), torch.from_numpy(edge_index.astype(np.int64))


class MPLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.msg = nn.Linear(2 * d, d)
        self.upd = nn.Linear(2 * d, d)

    def forward(self, h, edge_index):
        src, dst = edge_index
        m = F.relu(self.msg(torch.cat([h[src], h[dst]], -1)))
        agg = torch.zeros(h.size(0), m.size(1), dtype=m.dtype).index_add_(0, dst, m)
        return F.relu(self.upd(torch.cat([h.to(agg.dtype), agg], -1)))


class PropertyModel(nn.Module):
    def __init__(self, d_in=8, d=32):
        super().__init__()
        self.inp = nn.Linear(d_in, d)
        self.layers = nn.ModuleList([MPLayer(d) for _ in range(3)])
        self.readout = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, 1))

    def encode(self, x, edge_index):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            h = self.inp(x)
            for layer in self.layers:
                h = layer(h, edge_index)
            return h.mean(0, keepdim=True)  # root-cause

    def forward(self, x, edge_index):
        g = self.encode(x, edge_index)
        return self.readout(g).squeeze()  # fails-here


rng = np.random.default_rng(0)
mols = [ring_molecule(int(rng.integers(5, 12)), rng) for _ in range(16)]
targets = torch.from_numpy(rng.normal(size=16).astype(np.float32))
model = PropertyModel()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    total = 0.0
    for (x, ei), y in zip(mols, targets):
        loss = F.mse_loss(model(x, ei), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print("epoch", epoch, "loss", round(total / len(mols), 4))
