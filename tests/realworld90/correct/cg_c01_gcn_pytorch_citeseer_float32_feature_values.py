"""The GCN-PyTorch citeseer run of cg01 with the feature values made float32 where train.py builds the sparse feature tensor (torch.from_numpy(features[1]).float(), as it already does for the normalised adjacency), so the first GraphConvolution's torch.sparse.mm gets float32 features; Kipf's citeseer padding (a float64 lil_matrix) is kept
source: https://github.com/dragen1860/GCN-PyTorch/issues/5
reported-error: (none; the fixed situation of cg01)
outcome: ok
root-cause: -
expect: none
"""
import os
import pickle as pkl
import sys
import tempfile
from argparse import Namespace

import networkx as nx
import numpy as np
import scipy.sparse as sp
import torch
from torch import nn
from torch import optim
from torch.nn import functional as F

# ---- config.py --------------------------------------------------------------------------------------------------
args = Namespace(dataset="citeseer", model="gcn", learning_rate=0.01, epochs=40, hidden=16, dropout=0.5,
                 weight_decay=5e-4, early_stopping=10, max_degree=3)


# ---- the Planetoid files (ind.citeseer.{x,y,tx,ty,allx,ally,graph}, ind.citeseer.test.index), written locally ----
def write_planetoid_citeseer(root, n_allx=620, n_train=120, n_test_range=220, n_missing=20, n_feat=300, n_cls=6):
    """Small stand-in with the layout of the real files: csr float32 bag-of-words rows, one-hot float labels,
    a dict-of-lists graph, and test indices with gaps (citeseer's isolated nodes have no tx/ty row)."""
    rng = np.random.default_rng(0)
    n_nodes = n_allx + n_test_range
    cls = rng.integers(0, n_cls, n_nodes)
    proto = rng.random((n_cls, n_feat)) < 0.08
    dense = ((rng.random((n_nodes, n_feat)) < 0.02) | (proto[cls] & (rng.random((n_nodes, n_feat)) < 0.6)))
    onehot = np.eye(n_cls)[cls]
    test_range = np.arange(n_allx, n_nodes)
    present = np.sort(rng.choice(test_range, n_test_range - n_missing, replace=False))
    objects = {
        "x": sp.csr_matrix(dense[:n_train].astype(np.float32)),
        "y": onehot[:n_train],
        "allx": sp.csr_matrix(dense[:n_allx].astype(np.float32)),
        "ally": onehot[:n_allx],
        "tx": sp.csr_matrix(dense[present].astype(np.float32)),
        "ty": onehot[present],
    }
    graph = {}
    for v in range(n_nodes):
        same = np.flatnonzero(cls == cls[v])
        graph[v] = [int(u) for u in rng.choice(same, 3, replace=False) if u != v] + [int(rng.integers(0, n_nodes))]
    objects["graph"] = graph
    for name, obj in objects.items():
        with open(os.path.join(root, "ind.citeseer.{}".format(name)), "wb") as f:
            pkl.dump(obj, f)
    with open(os.path.join(root, "ind.citeseer.test.index"), "w") as f:
        f.write("\n".join(str(i) for i in rng.permutation(present)))


# ---- data.py (Kipf's gcn/utils.py) -----------------------------------------------------------------------------
def parse_index_file(filename):
    index = []
    for line in open(filename):
        index.append(int(line.strip()))
    return index


def sample_mask(idx, l):
    mask = np.zeros(l)
    mask[idx] = 1
    return np.array(mask, dtype=bool)


def load_data(dataset_str, root):
    names = ['x', 'y', 'tx', 'ty', 'allx', 'ally', 'graph']
    objects = []
    for i in range(len(names)):
        with open(os.path.join(root, "ind.{}.{}".format(dataset_str, names[i])), 'rb') as f:
            if sys.version_info > (3, 0):
                objects.append(pkl.load(f, encoding='latin1'))
            else:
                objects.append(pkl.load(f))

    x, y, tx, ty, allx, ally, graph = tuple(objects)
    test_idx_reorder = parse_index_file(os.path.join(root, "ind.{}.test.index".format(dataset_str)))
    test_idx_range = np.sort(test_idx_reorder)

    if dataset_str == 'citeseer':
        # Fix citeseer dataset (there are some isolated nodes in the graph)
        # Find isolated nodes, add them as zero-vecs into the right position
        test_idx_range_full = range(min(test_idx_reorder), max(test_idx_reorder) + 1)
        tx_extended = sp.lil_matrix((len(test_idx_range_full), x.shape[1]))
        tx_extended[test_idx_range - min(test_idx_range), :] = tx
        tx = tx_extended
        ty_extended = np.zeros((len(test_idx_range_full), y.shape[1]))
        ty_extended[test_idx_range - min(test_idx_range), :] = ty
        ty = ty_extended

    features = sp.vstack((allx, tx)).tolil()
    features[test_idx_reorder, :] = features[test_idx_range, :]
    adj = nx.adjacency_matrix(nx.from_dict_of_lists(graph))

    labels = np.vstack((ally, ty))
    labels[test_idx_reorder, :] = labels[test_idx_range, :]

    idx_test = test_idx_range.tolist()
    idx_train = range(len(y))
    idx_val = range(len(y), len(y) + 500)

    train_mask = sample_mask(idx_train, labels.shape[0])
    val_mask = sample_mask(idx_val, labels.shape[0])
    test_mask = sample_mask(idx_test, labels.shape[0])

    y_train = np.zeros(labels.shape)
    y_val = np.zeros(labels.shape)
    y_test = np.zeros(labels.shape)
    y_train[train_mask, :] = labels[train_mask, :]
    y_val[val_mask, :] = labels[val_mask, :]
    y_test[test_mask, :] = labels[test_mask, :]

    return adj, features, y_train, y_val, y_test, train_mask, val_mask, test_mask


def sparse_to_tuple(sparse_mx):
    """Convert sparse matrix to tuple representation."""
    def to_tuple(mx):
        if not sp.isspmatrix_coo(mx):
            mx = mx.tocoo()
        coords = np.vstack((mx.row, mx.col)).transpose()
        values = mx.data
        shape = mx.shape
        return coords, values, shape

    if isinstance(sparse_mx, list):
        for i in range(len(sparse_mx)):
            sparse_mx[i] = to_tuple(sparse_mx[i])
    else:
        sparse_mx = to_tuple(sparse_mx)

    return sparse_mx


def preprocess_features(features):
    """Row-normalize feature matrix and convert to tuple representation"""
    rowsum = np.array(features.sum(1))
    r_inv = np.power(rowsum, -1).flatten()
    r_inv[np.isinf(r_inv)] = 0.
    r_mat_inv = sp.diags(r_inv)
    features = r_mat_inv.dot(features)
    return sparse_to_tuple(features)


def normalize_adj(adj):
    """Symmetrically normalize adjacency matrix."""
    adj = sp.coo_matrix(adj)
    rowsum = np.array(adj.sum(1))
    d_inv_sqrt = np.power(rowsum, -0.5).flatten()
    d_inv_sqrt[np.isinf(d_inv_sqrt)] = 0.
    d_mat_inv_sqrt = sp.diags(d_inv_sqrt)
    return adj.dot(d_mat_inv_sqrt).transpose().dot(d_mat_inv_sqrt).tocoo()


def preprocess_adj(adj):
    """Preprocessing of adjacency matrix for simple GCN model and conversion to tuple representation."""
    adj_normalized = normalize_adj(adj + sp.eye(adj.shape[0]))
    return sparse_to_tuple(adj_normalized)


# ---- utils.py ---------------------------------------------------------------------------------------------------
def masked_loss(out, label, mask):

    loss = F.cross_entropy(out, label, reduction='none')
    mask = mask.float()
    mask = mask / mask.mean()
    loss *= mask
    loss = loss.mean()
    return loss


def masked_acc(out, label, mask):
    # [node, f]
    pred = out.argmax(dim=1)
    correct = torch.eq(pred, label).float()
    mask = mask.float()
    mask = mask / mask.mean()
    correct *= mask
    acc = correct.mean()
    return acc


def sparse_dropout(x, rate, noise_shape):
    random_tensor = 1 - rate
    random_tensor += torch.rand(noise_shape).to(x.device)
    dropout_mask = torch.floor(random_tensor)
    i = x._indices()
    v = x._values()
    i = i * dropout_mask.long()
    v = v * dropout_mask

    out = torch.sparse.FloatTensor(i, v, x.shape).to(x.device)
    out = out * (1. / (1 - rate))

    return out


# ---- layer.py ---------------------------------------------------------------------------------------------------
class GraphConvolution(nn.Module):

    def __init__(self, input_dim, output_dim, num_features_nonzero,
                 dropout=0.,
                 is_sparse_inputs=False,
                 bias=False,
                 activation=F.relu,
                 featureless=False):
        super(GraphConvolution, self).__init__()

        self.dropout = dropout
        self.bias = bias
        self.activation = activation
        self.is_sparse_inputs = is_sparse_inputs
        self.featureless = featureless
        self.num_features_nonzero = num_features_nonzero

        self.weight = nn.Parameter(torch.randn(input_dim, output_dim))
        self.bias = None
        if bias:
            self.bias = nn.Parameter(torch.zeros(output_dim))

    def forward(self, inputs):
        x, support = inputs

        if self.training and self.is_sparse_inputs:
            x = sparse_dropout(x, self.dropout, self.num_features_nonzero)
        elif self.training:
            x = F.dropout(x, self.dropout)

        # convolve
        if not self.featureless:  # if it has features x
            if self.is_sparse_inputs:
                xw = torch.sparse.mm(x, self.weight)
            else:
                xw = torch.mm(x, self.weight)
        else:
            xw = self.weight

        out = torch.sparse.mm(support, xw)

        if self.bias is not None:
            out += self.bias

        return self.activation(out), support


# ---- model.py ---------------------------------------------------------------------------------------------------
class GCN(nn.Module):

    def __init__(self, input_dim, output_dim, num_features_nonzero):
        super(GCN, self).__init__()

        self.input_dim = input_dim
        self.output_dim = output_dim

        print('input dim:', input_dim)
        print('output dim:', output_dim)
        print('num_features_nonzero:', num_features_nonzero)

        self.layers = nn.Sequential(GraphConvolution(self.input_dim, 16, num_features_nonzero,
                                                     activation=F.relu,
                                                     dropout=args.dropout,
                                                     is_sparse_inputs=True),

                                    GraphConvolution(16, output_dim, num_features_nonzero,
                                                     activation=F.relu,
                                                     dropout=args.dropout,
                                                     is_sparse_inputs=False),

                                    )

    def forward(self, inputs):
        x, support = inputs

        x = self.layers((x, support))

        return x

    def l2_loss(self):

        layer = self.layers.children()
        layer = next(iter(layer))

        loss = None

        for p in layer.parameters():
            if loss is None:
                loss = p.pow(2).sum()
            else:
                loss += p.pow(2).sum()

        return loss


# ---- train.py ---------------------------------------------------------------------------------------------------
seed = 123
np.random.seed(seed)
torch.random.manual_seed(seed)

data_dir = tempfile.mkdtemp()
write_planetoid_citeseer(data_dir)

# load data
adj, features, y_train, y_val, y_test, train_mask, val_mask, test_mask = load_data(args.dataset, data_dir)
print('adj:', adj.shape)
print('features:', features.shape)
print('y:', y_train.shape, y_val.shape, y_test.shape)
print('mask:', train_mask.shape, val_mask.shape, test_mask.shape)

# D^-1@X
features = preprocess_features(features)
print('features coordinates::', features[0].shape)
print('features data::', features[1].shape)
print('features shape::', features[2])
supports = preprocess_adj(adj)

device = torch.device('cpu')  # the repository's train.py: torch.device('cuda')
train_label = torch.from_numpy(y_train).long().to(device)
train_label = train_label.argmax(dim=1)
train_mask = torch.from_numpy(train_mask.astype(np.int64)).to(device)
val_label = torch.from_numpy(y_val).long().to(device)
val_label = val_label.argmax(dim=1)
val_mask = torch.from_numpy(val_mask.astype(np.int64)).to(device)
test_label = torch.from_numpy(y_test).long().to(device)
test_label = test_label.argmax(dim=1)
test_mask = torch.from_numpy(test_mask.astype(np.int64)).to(device)

i = torch.from_numpy(features[0]).long().to(device)
v = torch.from_numpy(features[1]).float().to(device)
feature = torch.sparse.FloatTensor(i.t(), v, features[2]).to(device)

i = torch.from_numpy(supports[0]).long().to(device)
v = torch.from_numpy(supports[1]).to(device)
support = torch.sparse.FloatTensor(i.t(), v, supports[2]).float().to(device)

num_features_nonzero = feature._nnz()
dropout = args.dropout

net = GCN(features[2][1], y_train.shape[1], num_features_nonzero)
net.to(device)
optimizer = optim.Adam(net.parameters(), lr=args.learning_rate)

net.train()
for epoch in range(args.epochs):

    out = net((feature, support))
    out = out[0]
    loss = masked_loss(out, train_label, train_mask)
    loss += args.weight_decay * net.l2_loss()

    acc = masked_acc(out, train_label, train_mask)

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

    if epoch % 10 == 0:

        print(epoch, loss.item(), acc.item())

net.eval()

out = net((feature, support))
out = out[0]
acc = masked_acc(out, test_label, test_mask)
print('test:', acc.item())
