"""R-GCN (HNE benchmark) supervised multi-label loss: label matrix read as int64 goes into F.binary_cross_entropy
source: https://github.com/yangji9181/HNE/issues/13
reported-error: RuntimeError: Found dtype Long but expected Float
outcome: RuntimeError: Found dtype Long but expected Float at line 89
root-cause: line 104
expect: DG007
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def parse_args():
    parser = argparse.ArgumentParser(description="R-GCN")
    parser.add_argument("--n-hidden", type=int, default=16)
    parser.add_argument("--n-epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-2)
    parser.add_argument("--supervised", type=str, default="True")
    parser.add_argument("--multi", type=str, default="True")
    return parser.parse_args([])


def write_dataset(folder, n_nodes=40, n_rel=2, n_labels=3, seed=0):
    rng = np.random.default_rng(seed)
    with open(os.path.join(folder, "link.dat"), "w") as f:
        for _ in range(120):
            f.write(f"{rng.integers(n_nodes)}\t{rng.integers(n_nodes)}\t{rng.integers(n_rel)}\n")
    with open(os.path.join(folder, "label.dat"), "w") as f:
        for node in rng.choice(n_nodes, 20, replace=False):
            labs = ",".join(str(l) for l in rng.choice(n_labels, rng.integers(1, n_labels + 1), replace=False))
            f.write(f"{node}\t{labs}\n")
    return n_nodes, n_rel, n_labels


def load_data(folder, n_nodes, n_rel, n_labels):
    edges = np.loadtxt(os.path.join(folder, "link.dat"), dtype=np.int64)
    adjs = []
    for r in range(n_rel):
        a = np.zeros((n_nodes, n_nodes), dtype=np.float32)
        e = edges[edges[:, 2] == r]
        a[e[:, 0], e[:, 1]] = 1.0
        a = a / np.maximum(a.sum(1, keepdims=True), 1.0)
        adjs.append(torch.from_numpy(a))
    labeled, labels = [], []
    with open(os.path.join(folder, "label.dat")) as f:
        for line in f:
            node, labs = line.strip().split("\t")
            row = np.zeros(n_labels, dtype=np.int64)
            row[[int(l) for l in labs.split(",")]] = 1
            labeled.append(int(node))
            labels.append(row)
    return adjs, np.array(labeled), np.stack(labels)


class RGCNLayer(nn.Module):
    def __init__(self, in_feat, out_feat, num_rels):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_rels, in_feat, out_feat) * 0.1)
        self.self_loop = nn.Linear(in_feat, out_feat)

    def forward(self, h, adjs):
        out = self.self_loop(h)
        for r, adj in enumerate(adjs):
            out = out + adj @ (h @ self.weight[r])
        return out


class EntityClassify(nn.Module):
    def __init__(self, num_nodes, h_dim, out_dim, num_rels):
        super().__init__()
        self.embed = nn.Embedding(num_nodes, h_dim)
        self.layers = nn.ModuleList([RGCNLayer(h_dim, h_dim, num_rels), RGCNLayer(h_dim, out_dim, num_rels)])

    def forward(self, adjs):
        h = self.embed.weight
        for i, layer in enumerate(self.layers):
            h = layer(h, adjs)
            if i == 0:
                h = F.relu(h)
        return h

    def get_supervised_loss(self, embed, matched_labels, matched_index, multi):
        if multi:
            predict_loss = F.binary_cross_entropy(torch.sigmoid(embed[matched_index]), matched_labels)  # fails-here
        else:
            predict_loss = F.nll_loss(F.log_softmax(embed[matched_index], dim=-1), matched_labels)
        return predict_loss


def main(args):
    folder = tempfile.mkdtemp()
    n_nodes, n_rel, n_labels = write_dataset(folder)
    adjs, labeled_index, labels = load_data(folder, n_nodes, n_rel, n_labels)
    multi = args.multi == "True"

    model = EntityClassify(n_nodes, args.n_hidden, n_labels, n_rel)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    matched_index = torch.from_numpy(labeled_index)
    matched_labels = torch.from_numpy(labels)  # root-cause

    for epoch in range(args.n_epochs):
        model.train()
        optimizer.zero_grad()
        pred = model(adjs)
        if args.supervised == "True":
            loss = model.get_supervised_loss(pred, matched_labels, matched_index, multi)
        loss.backward()
        optimizer.step()
        print(f"Epoch {epoch:05d} | Loss {loss.item():.4f}")


if __name__ == "__main__":
    main(parse_args())
