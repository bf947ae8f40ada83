"""MoNet (GMMConv) on MNIST-as-a-grid-graph, the dgl examples/pytorch/model_zoo/geometric/mnist.py pipeline (dmlc/dgl #4630): node coordinates are averaged from the coarsening permutation, whose entries are NumPy int64, so every x_accum / cnt is a NumPy float64 and th.tensor(xs) makes float64 coordinates; the polar pseudo-coordinates on the edges are float64, the Gaussian edge weights promote to float64 and the message sum into the float32 node buffer fails
source: https://github.com/dmlc/dgl/issues/4630
reported-error: "MNIST examples (chebnet, monet) in examples/pytorch/model_zoo/geometric, crash due to an assertion failure in model conv, complaining the inconsistent types between node feats (float32) vs. edge feats (float64)" at graph.update_all(fn.u_mul_e('h', 'w', 'm'), ...) in GMMConv.forward
outcome: RuntimeError: index_add_(): self (Float) and source (Double) must have the same scalar type at line 94
root-cause: line 61
expect: DG004
"""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
np.random.seed(0)

grid_side = 28
number_edges = 8


# ---- grid graph (the example's grid_graph.py, kNN on the pixel grid) and a node permutation as coarsen() returns it
def grid_graph(m, k):
    xs = np.linspace(0, 1, m, dtype=np.float32)
    xx, yy = np.meshgrid(xs, xs)
    z = np.stack([xx.reshape(-1), yy.reshape(-1)], 1)
    d = np.sqrt(((z[:, None, :] - z[None, :, :]) ** 2).sum(-1))
    idx = np.argsort(d, axis=1)[:, 1:k + 1]
    src = np.repeat(np.arange(m * m), k)
    dst = idx.reshape(-1)
    return torch.from_numpy(src).long(), torch.from_numpy(dst).long()


def coarsen_perm(n):
    # coarsening.compute_perm: node indices from np.where(...) / np.argsort, i.e. NumPy int64 entries
    return list(np.argsort(np.random.rand(n)))


src, dst = grid_graph(grid_side, number_edges)
perm = coarsen_perm(grid_side ** 2)
num_nodes = len(perm)


# ---- coordinate.py: x, y of every node, then polar pseudo-coordinates on every edge
eps = 1e-8


def get_coordinates(num_nodes, grid_side, perm):
    xs, ys = [], []
    for i in range(num_nodes):
        cnt = eps
        x_accum = 0
        y_accum = 0
        if perm[i] < grid_side ** 2:
            x_accum += (perm[i] // grid_side)
            y_accum += (perm[i] % grid_side)
            cnt += 1
        xs.append(x_accum / cnt)
        ys.append(y_accum / cnt)
    return torch.cat([torch.tensor(xs).view(-1, 1), torch.tensor(ys).view(-1, 1)], -1)  # root-cause


def z2polar(xy, src, dst):
    z = xy[dst] - xy[src]
    rho = torch.norm(z, dim=-1, p=2)
    x, y = z.unbind(dim=-1)
    phi = torch.atan2(y, x)
    return torch.cat([rho.unsqueeze(-1), phi.unsqueeze(-1)], -1)


xy = get_coordinates(num_nodes, grid_side, perm)
pseudo = z2polar(xy, src, dst)


# ---- GMMConv (dgl.nn.pytorch.conv.GMMConv), message passing written with index_add_
class GMMConv(nn.Module):
    def __init__(self, in_feats, out_feats, dim, n_kernels):
        super().__init__()
        self.out_feats, self.n_kernels = out_feats, n_kernels
        self.mu = nn.Parameter(torch.randn(n_kernels, dim) * 0.1)
        self.inv_sigma = nn.Parameter(torch.ones(n_kernels, dim))
        self.fc = nn.Linear(in_feats, n_kernels * out_feats, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_feats))

    def forward(self, src, dst, feat, pseudo):
        n, e = feat.shape[0], pseudo.shape[0]
        h = self.fc(feat).view(n, self.n_kernels, self.out_feats)
        gaussian = -0.5 * ((pseudo.view(e, 1, -1) - self.mu.view(1, self.n_kernels, -1)) ** 2)
        gaussian = gaussian * (self.inv_sigma.view(1, self.n_kernels, -1) ** 2)
        w = torch.exp(gaussian.sum(dim=-1, keepdim=True))  # (E, K, 1)
        m = h[src] * w  # u_mul_e('h', 'w', 'm')
        out = torch.zeros(n, self.n_kernels, self.out_feats, dtype=h.dtype)
        out.index_add_(0, dst, m)  # fails-here
        return out.sum(1) / number_edges + self.bias


class MoNet(nn.Module):
    def __init__(self, n_kernels, in_feats, hiddens, out_feats):
        super().__init__()
        self.layers = nn.ModuleList([GMMConv(in_feats, hiddens[0], 2, n_kernels)])
        for i in range(1, len(hiddens)):
            self.layers.append(GMMConv(hiddens[i - 1], hiddens[i], 2, n_kernels))
        self.cls = nn.Sequential(nn.Linear(hiddens[-1], out_feats), nn.LogSoftmax(dim=-1))

    def forward(self, x):  # x: (B, N, 1) pixel intensities in graph order
        outs = []
        for img in x:
            feat = img
            for layer in self.layers:
                feat = F.relu(layer(src, dst, feat, pseudo))
            outs.append(feat.max(0)[0])  # MaxPooling readout
        return self.cls(torch.stack(outs))


# ---- synthetic "MNIST": 28x28 images and labels, batched the way the example's batcher does
images = torch.rand(64, 1, grid_side, grid_side)
labels = torch.randint(0, 10, (64,))


def batcher(batch):
    x_batch = torch.stack([x.view(-1)[perm] for x, _ in batch]).unsqueeze(-1)
    y_batch = torch.LongTensor([int(y) for _, y in batch])
    return x_batch, y_batch


loader = DataLoader(TensorDataset(images, labels), batch_size=16, shuffle=True, collate_fn=batcher)
model = MoNet(4, 1, [16, 32], 10)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(2):
    model.train()
    hit, tot, loss_accum = 0, 0, 0.0
    for x, y in loader:
        out = model(x)
        loss = F.nll_loss(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        hit += (out.max(-1)[1] == y).sum().item()
        tot += len(y)
        loss_accum += loss.item()
    print('epoch {} loss {:.4f} acc {:.3f}'.format(epoch, loss_accum / len(loader), hit / tot))
