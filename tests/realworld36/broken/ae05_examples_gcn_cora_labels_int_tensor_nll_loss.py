"""Semi-supervised node classification on Cora with a two-layer GCN (pytorch/examples gcn/main.py: GraphConv and GCN modules ending in log_softmax, load_cora parsing cora.content/cora.cites with NumPy and building the renormalised sparse adjacency, train_iter/test with nn.NLLLoss, argparse with --no-accel): the variant builds the class-index tensor with the legacy torch.IntTensor(labels), in the spirit of the np.int32 arrays around it, so NLLLoss receives int32 targets
source: https://github.com/pytorch/examples/blob/d47f0f34f18c8a16ed3d9bf264305b8f988a7c93/gcn/main.py
reported-error: (none filed; upstream uses torch.LongTensor(labels); the variant's int32 labels fail at the first loss in train_iter)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 97
root-cause: line 68
expect: DG006
"""
import os
import time
import tempfile
import argparse

import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.optim import Adam


class GraphConv(nn.Module):
    def __init__(self, input_dim, output_dim, use_bias=False):
        super(GraphConv, self).__init__()
        self.kernel = nn.Parameter(torch.Tensor(input_dim, output_dim))
        nn.init.xavier_normal_(self.kernel)
        self.bias = None
        if use_bias:
            self.bias = nn.Parameter(torch.Tensor(output_dim))
            nn.init.zeros_(self.bias)

    def forward(self, input_tensor, adj_mat):
        support = torch.mm(input_tensor, self.kernel)
        output = torch.spmm(adj_mat, support)
        if self.bias is not None:
            output = output + self.bias
        return output


class GCN(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim, use_bias=True, dropout_p=0.1):
        super(GCN, self).__init__()
        self.gc1 = GraphConv(input_dim, hidden_dim, use_bias=use_bias)
        self.gc2 = GraphConv(hidden_dim, output_dim, use_bias=use_bias)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, input_tensor, adj_mat):
        x = self.gc1(input_tensor, adj_mat)
        x = F.relu(x)
        x = self.dropout(x)
        x = self.gc2(x, adj_mat)
        return F.log_softmax(x, dim=1)


def load_cora(path='./cora', device='cpu'):
    content_path = os.path.join(path, 'cora.content')
    cites_path = os.path.join(path, 'cora.cites')

    content_tensor = np.genfromtxt(content_path, dtype=np.dtype(str))
    cites_tensor = np.genfromtxt(cites_path, dtype=np.int32)

    features = torch.FloatTensor(content_tensor[:, 1:-1].astype(np.int32))
    scale_vector = torch.sum(features, dim=1)
    scale_vector = 1 / scale_vector
    scale_vector[scale_vector == float('inf')] = 0
    scale_vector = torch.diag(scale_vector).to_sparse()
    features = scale_vector @ features

    classes, labels = np.unique(content_tensor[:, -1], return_inverse=True)
    labels = torch.IntTensor(labels)  # root-cause

    idx = content_tensor[:, 0].astype(np.int32)
    idx_map = {id: pos for pos, id in enumerate(idx)}
    edges = np.array(
        list(map(lambda edge: [idx_map[edge[0]], idx_map[edge[1]]],
            cites_tensor)), dtype=np.int32)

    V = len(idx)
    E = edges.shape[0]
    adj_mat = torch.sparse_coo_tensor(edges.T, torch.ones(E), (V, V), dtype=torch.int64)
    adj_mat = torch.eye(V) + adj_mat

    degree_mat = torch.sum(adj_mat, dim=1)
    degree_mat = torch.sqrt(1 / degree_mat)
    degree_mat[degree_mat == float('inf')] = 0
    degree_mat = torch.diag(degree_mat).to_sparse()

    adj_mat = degree_mat @ adj_mat @ degree_mat

    return features.to_sparse().to(device), labels.to(device), adj_mat.to_sparse().to(device)


def train_iter(epoch, model, optimizer, criterion, input, target, mask_train, mask_val, print_every=10):
    start_t = time.time()
    model.train()
    optimizer.zero_grad()

    output = model(*input)
    loss = criterion(output[mask_train], target[mask_train])  # fails-here

    loss.backward()
    optimizer.step()

    loss_train, acc_train = test(model, criterion, input, target, mask_train)
    loss_val, acc_val = test(model, criterion, input, target, mask_val)

    if epoch % print_every == 0:
        print(f'Epoch: {epoch:04d} ({(time.time() - start_t):.4f}s) loss_train: {loss_train:.4f} acc_train: {acc_train:.4f} loss_val: {loss_val:.4f} acc_val: {acc_val:.4f}')


def test(model, criterion, input, target, mask):
    model.eval()
    with torch.no_grad():
        output = model(*input)
        output, target = output[mask], target[mask]
        loss = criterion(output, target)
        acc = (output.argmax(dim=1) == target).float().sum() / len(target)
    return loss.item(), acc.item()


def write_fake_cora(path, n_nodes=300, n_feats=60, n_edges=900):
    """Synthetic stand-in for the downloaded cora.tgz (same two whitespace-separated files)."""
    os.makedirs(path, exist_ok=True)
    rng = np.random.default_rng(0)
    topics = ['Case_Based', 'Genetic_Algorithms', 'Neural_Networks', 'Theory']
    ids = rng.choice(np.arange(1000, 100000), n_nodes, replace=False)
    with open(os.path.join(path, 'cora.content'), 'w') as f:
        for pid in ids:
            words = (rng.random(n_feats) < 0.1).astype(int)
            words[rng.integers(n_feats)] = 1
            f.write(f"{pid}\t" + "\t".join(map(str, words)) + f"\t{topics[rng.integers(4)]}\n")
    with open(os.path.join(path, 'cora.cites'), 'w') as f:
        for _ in range(n_edges):
            a, b = rng.choice(ids, 2, replace=False)
            f.write(f"{a}\t{b}\n")


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description='PyTorch Graph Convolutional Network')
    parser.add_argument('--epochs', type=int, default=20)
    parser.add_argument('--lr', type=float, default=0.01)
    parser.add_argument('--l2', type=float, default=5e-4)
    parser.add_argument('--dropout-p', type=float, default=0.5)
    parser.add_argument('--hidden-dim', type=int, default=16)
    parser.add_argument('--val-every', type=int, default=5)
    parser.add_argument('--include-bias', action='store_true')
    parser.add_argument('--no-accel', action='store_true')
    parser.add_argument('--dry-run', action='store_true')
    parser.add_argument('--seed', type=int, default=42, metavar='S')
    args = parser.parse_args()

    use_accel = not args.no_accel and torch.accelerator.is_available()

    torch.manual_seed(args.seed)

    if use_accel:
        device = torch.accelerator.current_accelerator()
    else:
        device = torch.device('cpu')

    print(f'Using {device} device')

    # the download of https://linqs-data.soe.ucsc.edu/public/lbc/cora.tgz replaced by a synthetic graph
    cora_dir = os.path.join(tempfile.mkdtemp(), 'cora')
    write_fake_cora(cora_dir)

    print('Loading dataset...')
    features, labels, adj_mat = load_cora(cora_dir, device=device)
    idx = torch.randperm(len(labels)).to(device)
    idx_test, idx_val, idx_train = idx[:100], idx[100:150], idx[150:]

    gcn = GCN(features.shape[1], args.hidden_dim, labels.max().item() + 1, args.include_bias, args.dropout_p).to(device)
    optimizer = Adam(gcn.parameters(), lr=args.lr, weight_decay=args.l2)
    criterion = nn.NLLLoss()

    for epoch in range(args.epochs):
        train_iter(epoch + 1, gcn, optimizer, criterion, (features, adj_mat), labels, idx_train, idx_val, args.val_every)
        if args.dry_run:
            break

    loss_test, acc_test = test(gcn, criterion, (features, adj_mat), labels, idx_test)
    print(f'Test set results: loss {loss_test:.4f} accuracy {acc_test:.4f}')
