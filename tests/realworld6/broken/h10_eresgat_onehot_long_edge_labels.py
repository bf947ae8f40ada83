"""Edge-classification GAT for intrusion detection (E-ResGAT style): labels are stored one-hot as an int64 tensor, so CrossEntropyLoss treats them as class probabilities
source: https://github.com/George730/E-ResGAT/issues/5
reported-error: RuntimeError: Expected floating point type for target with class probabilities, got Long (from loss_fn(batch_output, label[batch_edges]) in predict_)
outcome: RuntimeError: Expected floating point type for target with class probabilities, got Long at line 45
root-cause: line 45
expect: DG006
"""
import argparse
import time

import numpy as np
import pandas as pd
import torch
import torch.nn as nn


def load_flows(n_edges=200, n_feat=10, n_classes=4, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(rng.normal(size=(n_edges, n_feat)).astype(np.float32), columns=[f"f{i}" for i in range(n_feat)])
    df["Label"] = rng.choice(["BENIGN", "DoS", "PortScan", "Bot"], n_edges)
    df["src"] = rng.integers(0, 30, n_edges)
    df["dst"] = rng.integers(0, 30, n_edges)
    return df


class EdgeGAT(nn.Module):
    def __init__(self, n_feat, n_hidden, n_classes):
        super().__init__()
        self.edge_fc = nn.Linear(n_feat, n_hidden)
        self.att = nn.Linear(2 * n_hidden, 1)
        self.out = nn.Linear(2 * n_hidden, n_classes)

    def forward(self, edge_feat, src, dst, n_nodes=30):
        h_e = torch.relu(self.edge_fc(edge_feat))
        node = torch.zeros(n_nodes, h_e.shape[1]).index_add_(0, dst, h_e)
        a = torch.sigmoid(self.att(torch.cat([h_e, node[src]], 1)))
        return self.out(torch.cat([h_e, a * node[dst]], 1))


def predict_(alg, model, label, loss_fn, edges, data):
    model.eval()
    with torch.no_grad():
        out = model(*data)
        batch_output = out[edges]
        batch_loss = loss_fn(batch_output, label[edges])  # root-cause # fails-here
        acc = (batch_output.argmax(1) == label[edges].argmax(1)).float().mean()
    return acc.item(), batch_loss.item(), batch_output


def fit(args):
    df = load_flows()
    classes = sorted(df["Label"].unique())
    label = torch.tensor(pd.get_dummies(df["Label"])[classes].values.astype(np.int64))  # root-cause-alt
    data = (torch.tensor(df.filter(like="f").values), torch.tensor(df["src"].values), torch.tensor(df["dst"].values))
    model = EdgeGAT(data[0].shape[1], args.hidden, len(classes))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.CrossEntropyLoss()
    perm = torch.randperm(len(df))
    train, val = perm[:150], perm[150:]
    for batch in range(args.batches):
        t = time.time()
        model.train()
        out = model(*data)
        loss_train = loss_fn(out[train], label[train].argmax(1))
        optimizer.zero_grad()
        loss_train.backward()
        optimizer.step()
        print(f"batch: {batch} loss_train: {loss_train.item():.4f} time: {time.time() - t:.4f}s")
    acc_val, loss_val, val_output = predict_("gat", model, label, loss_fn, val, data)
    print("val", acc_val, loss_val)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--lr", type=float, default=5e-3)
    parser.add_argument("--batches", type=int, default=3)
    fit(parser.parse_args())
