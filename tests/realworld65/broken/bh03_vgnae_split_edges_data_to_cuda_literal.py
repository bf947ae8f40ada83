"""VGNAE link prediction (PyG-style, re-typed) on a CPU-only machine: the script picks dev = cuda if available else cpu for the model, but the graph is moved with a literal data.to('cuda') before train_test_split_edges, so on a machine without CUDA the run stops before training
source: https://github.com/SeongJinAhn/VGNAE/pull/3
reported-error: "Bug fix: fix train test split error on CPU only device -- In the original train test split method, the data would be passed directly to the GPU, which would cause errors on CPU only devices" (main.py: data = train_test_split_edges(data.to('cuda'), ...); the PR moves dev above it and uses data.to(dev))
outcome: AssertionError: Torch not compiled with CUDA enabled at line 43
root-cause: line 173
expect: DG009
"""
import argparse
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import average_precision_score, roc_auc_score

torch.manual_seed(0)
rng = np.random.default_rng(0)
EPS, MAX_LOGSTD = 1e-15, 10

parser = argparse.ArgumentParser()
parser.add_argument('--model', type=str, default='VGNAE')
parser.add_argument('--epochs', type=int, default=60)
parser.add_argument('--channels', type=int, default=32)
parser.add_argument('--scaling_factor', type=float, default=1.8)
parser.add_argument('--training_rate', type=float, default=0.8)
args = parser.parse_args([])


class Data:
    """A minimal torch_geometric.data.Data: named tensors, .to(device) moves all of them."""

    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)

    @property
    def num_nodes(self):
        return self.x.size(0)

    def to(self, device):
        for k, v in list(self.__dict__.items()):
            if torch.is_tensor(v):
                setattr(self, k, v.to(device))  # fails-here
        return self


def planetoid_like(num_nodes=300, num_feats=200, num_classes=5):
    y = torch.from_numpy(rng.integers(0, num_classes, num_nodes))
    x = (torch.rand(num_nodes, num_feats) < 0.03 + 0.1 * (torch.arange(num_feats) % num_classes == y[:, None])).float()
    p = torch.where(y[:, None] == y[None, :], 0.06, 0.004)
    adj = torch.bernoulli(p).triu(1)
    row, col = adj.nonzero().t()
    edge_index = torch.cat([torch.stack([row, col]), torch.stack([col, row])], dim=1)
    return Data(x=x, edge_index=edge_index, y=y)


def normalize_features(data):  # T.NormalizeFeatures()
    data.x = data.x / data.x.sum(-1, keepdim=True).clamp(min=1)
    return data


def to_undirected(edge_index):
    row, col = edge_index
    ei = torch.cat([torch.stack([row, col]), torch.stack([col, row])], dim=1)
    return torch.unique(ei, dim=1)


def train_test_split_edges(data, val_ratio=0.05, test_ratio=0.1):
    num_nodes = data.num_nodes
    row, col = data.edge_index
    data.edge_index = None
    mask = row < col
    row, col = row[mask], col[mask]
    n_v = int(math.floor(val_ratio * row.size(0)))
    n_t = int(math.floor(test_ratio * row.size(0)))
    perm = torch.randperm(row.size(0))
    row, col = row[perm], col[perm]
    data.val_pos_edge_index = torch.stack([row[:n_v], col[:n_v]], dim=0)
    data.test_pos_edge_index = torch.stack([row[n_v:n_v + n_t], col[n_v:n_v + n_t]], dim=0)
    data.train_pos_edge_index = to_undirected(torch.stack([row[n_v + n_t:], col[n_v + n_t:]], dim=0))
    neg_adj_mask = torch.ones(num_nodes, num_nodes, dtype=torch.uint8).triu(diagonal=1).to(torch.bool)
    neg_adj_mask[row, col] = 0
    neg_row, neg_col = neg_adj_mask.nonzero(as_tuple=False).t()
    perm = torch.randperm(neg_row.size(0))[:n_v + n_t]
    neg_row, neg_col = neg_row[perm], neg_col[perm]
    data.val_neg_edge_index = torch.stack([neg_row[:n_v], neg_col[:n_v]], dim=0)
    data.test_neg_edge_index = torch.stack([neg_row[n_v:n_v + n_t], neg_col[n_v:n_v + n_t]], dim=0)
    return data


class APPNP(nn.Module):
    """APPNP(K, alpha) propagation with the symmetric GCN normalisation and self-loops."""

    def __init__(self, K, alpha):
        super().__init__()
        self.K, self.alpha = K, alpha

    def forward(self, x, edge_index):
        n = x.size(0)
        loops = torch.arange(n, device=x.device)
        row = torch.cat([edge_index[0], loops])
        col = torch.cat([edge_index[1], loops])
        deg = torch.zeros(n, device=x.device).index_add_(0, col, torch.ones_like(col, dtype=x.dtype))
        norm = deg[row].rsqrt() * deg[col].rsqrt()
        h = x
        for _ in range(self.K):
            h = torch.zeros_like(x).index_add_(0, col, h[row] * norm[:, None])
            h = h * (1 - self.alpha) + self.alpha * x
        return h


class Encoder(torch.nn.Module):
    def __init__(self, in_channels, out_channels, edge_index):
        super(Encoder, self).__init__()
        self.linear1 = nn.Linear(in_channels, out_channels)
        self.linear2 = nn.Linear(in_channels, out_channels)
        self.propagate = APPNP(K=1, alpha=0)

    def forward(self, x, edge_index, not_prop=0):
        if args.model == 'GNAE':
            x = self.linear1(x)
            x = F.normalize(x, p=2, dim=1) * args.scaling_factor
            return self.propagate(x, edge_index)
        if args.model == 'VGNAE':
            x_ = self.propagate(self.linear1(x), edge_index)
            x = self.linear2(x)
            x = F.normalize(x, p=2, dim=1) * args.scaling_factor
            x = self.propagate(x, edge_index)
            return x, x_
        return x


class VGAE(nn.Module):
    """torch_geometric.nn.VGAE with the inner-product decoder."""

    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder

    def encode(self, *args_):
        self.__mu__, self.__logstd__ = self.encoder(*args_)
        self.__logstd__ = self.__logstd__.clamp(max=MAX_LOGSTD)
        if self.training:
            return self.__mu__ + torch.randn_like(self.__logstd__) * torch.exp(self.__logstd__)
        return self.__mu__

    @staticmethod
    def decoder(z, edge_index):
        return torch.sigmoid((z[edge_index[0]] * z[edge_index[1]]).sum(dim=1))

    def recon_loss(self, z, pos_edge_index):
        pos_loss = -torch.log(self.decoder(z, pos_edge_index) + EPS).mean()
        neg_edge_index = torch.randint(0, z.size(0), pos_edge_index.size(), device=z.device)
        neg_loss = -torch.log(1 - self.decoder(z, neg_edge_index) + EPS).mean()
        return pos_loss + neg_loss

    def kl_loss(self):
        mu, logstd = self.__mu__, self.__logstd__
        return -0.5 * torch.mean(torch.sum(1 + 2 * logstd - mu ** 2 - logstd.exp() ** 2, dim=1))

    def test(self, z, pos_edge_index, neg_edge_index):
        pos_pred, neg_pred = self.decoder(z, pos_edge_index), self.decoder(z, neg_edge_index)
        y = np.concatenate([np.ones(pos_pred.size(0)), np.zeros(neg_pred.size(0))])
        pred = torch.cat([pos_pred, neg_pred]).detach().cpu().numpy()
        return roc_auc_score(y, pred), average_precision_score(y, pred)


data = normalize_features(planetoid_like())

channels = args.channels
val_ratio = (1 - args.training_rate) / 3
test_ratio = (1 - args.training_rate) / 3 * 2
data = train_test_split_edges(data.to('cuda'), val_ratio=val_ratio, test_ratio=test_ratio)  # root-cause

N = int(data.x.size()[0])
dev = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
model = VGAE(Encoder(data.x.size()[1], channels, data.train_pos_edge_index)).to(dev)

data.y = None
x, train_pos_edge_index = data.x.to(dev), data.train_pos_edge_index.to(dev)
optimizer = torch.optim.Adam(model.parameters(), lr=0.005)


def train():
    model.train()
    optimizer.zero_grad()
    z = model.encode(x, train_pos_edge_index)
    loss = model.recon_loss(z, train_pos_edge_index)
    if args.model in ['VGAE']:
        loss = loss + (1 / data.num_nodes) * model.kl_loss()
    loss.backward()
    optimizer.step()
    return loss


def test(pos_edge_index, neg_edge_index):
    model.eval()
    with torch.no_grad():
        z = model.encode(x, train_pos_edge_index)
    return model.test(z, pos_edge_index, neg_edge_index)


for epoch in range(1, args.epochs):
    loss = float(train())
    if epoch % 20 == 0:
        auc, ap = test(data.test_pos_edge_index, data.test_neg_edge_index)
        print('Epoch: {:03d}, LOSS: {:.4f}, AUC: {:.4f}, AP: {:.4f}'.format(epoch, loss, auc, ap))
