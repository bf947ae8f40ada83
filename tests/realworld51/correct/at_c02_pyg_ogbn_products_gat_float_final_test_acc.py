"""Mini-batch GAT node classification in the style of PyG's examples/ogbn_products_gat.py (pyg-team/pytorch_geometric PR #7735 as in at02) with the PR's fix: each run starts from best_val_acc = final_test_acc = 0.0, so even a shortened run that never reaches the evaluation after epoch 50 appends floats and torch.tensor(test_accs) is float32 for the final mean and std; the int64 [N, 1] labels, the int correct counts and the int64 relabelled edge_index stay as they are
source: https://github.com/pyg-team/pytorch_geometric/pull/7735
reported-error: (none filed; the fixed situation of at02)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn import Linear as Lin

torch.manual_seed(12345)
rng = np.random.default_rng(12345)
out_dir = tempfile.mkdtemp()
device = torch.device("cpu")

# ---- a small synthetic stand-in for ogbn-products: co-purchase graph, 16 product categories ----
num_nodes, num_features, num_classes = 1500, 32, 16
y_np = rng.integers(0, num_classes, num_nodes)
centroids = rng.normal(0, 1, (num_classes, num_features))
x = torch.from_numpy(centroids[y_np] + rng.normal(0, 1.5, (num_nodes, num_features))).float()
same = rng.random((num_nodes, 12)) < 0.8
partners = np.where(same, rng.integers(0, num_nodes, (num_nodes, 12)), rng.integers(0, num_nodes, (num_nodes, 12)))
for i in range(num_nodes):  # intra-category edges: redraw a partner of the same category
    pool = np.flatnonzero(y_np == y_np[i])
    partners[i, same[i]] = rng.choice(pool, same[i].sum())
src = np.repeat(np.arange(num_nodes), 12)
dst = partners.reshape(-1)
adj = [[] for _ in range(num_nodes)]
for s, d in zip(src, dst):
    adj[d].append(int(s))
    adj[s].append(int(d))
data_y = torch.from_numpy(y_np).long().unsqueeze(1)  # OGB stores labels as [N, 1] int64
perm = torch.from_numpy(rng.permutation(num_nodes))
split_idx = {"train": perm[:300], "valid": perm[300:500], "test": perm[500:]}


class Evaluator:
    """ogb.nodeproppred.Evaluator(name='ogbn-products'): accuracy as a Python float."""

    def eval(self, input_dict):
        y_true, y_pred = input_dict["y_true"], input_dict["y_pred"]
        return {"acc": float((y_true == y_pred).float().mean())}


evaluator = Evaluator()


def neighbor_batches(input_nodes, num_neighbors, batch_size, shuffle):
    """NeighborLoader: seed nodes first, sampled k-hop neighbourhood, relabelled edge_index (src -> dst)."""
    order = input_nodes[torch.randperm(len(input_nodes))] if shuffle else input_nodes
    for start in range(0, len(order), batch_size):
        seeds = order[start:start + batch_size].tolist()
        pos = {n: i for i, n in enumerate(seeds)}
        nodes, rows, cols, frontier = list(seeds), [], [], seeds
        for k in num_neighbors:
            new = []
            for v in frontier:
                nbrs = adj[v] if k < 0 or len(adj[v]) <= k else rng.choice(adj[v], k, replace=False).tolist()
                for u in nbrs:
                    if u not in pos:
                        pos[u] = len(nodes)
                        nodes.append(u)
                        new.append(u)
                    rows.append(pos[u])
                    cols.append(pos[v])
            frontier = new
        n_id = torch.tensor(nodes)
        yield n_id, torch.tensor([rows, cols], dtype=torch.long), len(seeds)


class GATConv(nn.Module):
    def __init__(self, in_channels, out_channels, heads, concat=True):
        super().__init__()
        self.heads, self.out_channels, self.concat = heads, out_channels, concat
        self.lin = Lin(in_channels, heads * out_channels, bias=False)
        self.att_src = nn.Parameter(torch.empty(1, heads, out_channels))
        self.att_dst = nn.Parameter(torch.empty(1, heads, out_channels))
        self.bias = nn.Parameter(torch.empty(heads * out_channels if concat else out_channels))
        self.reset_parameters()

    def reset_parameters(self):
        self.lin.reset_parameters()
        nn.init.xavier_uniform_(self.att_src)
        nn.init.xavier_uniform_(self.att_dst)
        nn.init.zeros_(self.bias)

    def forward(self, x, edge_index):
        n, h, c = x.size(0), self.heads, self.out_channels
        xh = self.lin(x).view(n, h, c)
        loop = torch.arange(n)
        src, dst = torch.cat([edge_index[0], loop]), torch.cat([edge_index[1], loop])
        alpha = F.leaky_relu((xh * self.att_src).sum(-1)[src] + (xh * self.att_dst).sum(-1)[dst], 0.2)
        alpha = (alpha - alpha.max()).exp()
        alpha = alpha / torch.zeros(n, h).index_add_(0, dst, alpha)[dst]
        out = torch.zeros(n, h, c).index_add_(0, dst, xh[src] * alpha.unsqueeze(-1))
        out = out.reshape(n, h * c) if self.concat else out.mean(dim=1)
        return out + self.bias


class GAT(nn.Module):
    def __init__(self, in_channels, hidden_channels, out_channels, num_layers, heads):
        super().__init__()
        self.num_layers = num_layers
        self.convs = nn.ModuleList([GATConv(in_channels, hidden_channels, heads)])
        self.skips = nn.ModuleList([Lin(in_channels, hidden_channels * heads)])
        for _ in range(num_layers - 2):
            self.convs.append(GATConv(heads * hidden_channels, hidden_channels, heads))
            self.skips.append(Lin(hidden_channels * heads, hidden_channels * heads))
        self.convs.append(GATConv(heads * hidden_channels, out_channels, heads, concat=False))
        self.skips.append(Lin(hidden_channels * heads, out_channels))

    def reset_parameters(self):
        for conv, skip in zip(self.convs, self.skips):
            conv.reset_parameters()
            skip.reset_parameters()

    def forward(self, x, edge_index):
        for i, (conv, skip) in enumerate(zip(self.convs, self.skips)):
            x = conv(x, edge_index) + skip(x)
            if i != self.num_layers - 1:
                x = F.dropout(F.elu(x), p=0.5, training=self.training)
        return x


model = GAT(num_features, 16, num_classes, num_layers=3, heads=4).to(device)


def train(epoch):
    model.train()
    total_loss = total_correct = num_batches = 0
    for n_id, edge_index, batch_size in neighbor_batches(split_idx["train"], [10, 10, 5], 100, shuffle=True):
        optimizer.zero_grad()
        out = model(x[n_id], edge_index)[:batch_size]
        y = data_y[n_id][:batch_size].squeeze()
        loss = F.cross_entropy(out, y)
        loss.backward()
        optimizer.step()
        total_loss += float(loss)
        total_correct += int(out.argmax(dim=-1).eq(y).sum())
        num_batches += 1
    return total_loss / num_batches, total_correct / split_idx["train"].size(0)


@torch.no_grad()
def test():
    model.eval()
    out = torch.cat([model(x[n_id], ei)[:bs] for n_id, ei, bs in neighbor_batches(torch.arange(num_nodes), [-1, -1, -1], 500, False)])
    y_pred = out.argmax(dim=-1, keepdim=True)
    return tuple(evaluator.eval({"y_true": data_y[split_idx[k]], "y_pred": y_pred[split_idx[k]]})["acc"]
                 for k in ("train", "valid", "test"))


num_runs, num_epochs = 2, 6  # shortened run; the example does 10 runs of 100 epochs
test_accs = []
for run in range(1, num_runs + 1):
    print(f"\nRun {run:02d}:\n")
    model.reset_parameters()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    best_val_acc = final_test_acc = 0.0
    for epoch in range(1, num_epochs + 1):
        loss, acc = train(epoch)
        print(f"Epoch {epoch:02d}, Loss: {loss:.4f}, Approx. Train: {acc:.4f}")
        if epoch > 50 and epoch % 10 == 0:
            train_acc, val_acc, test_acc = test()
            print(f"Train: {train_acc:.4f}, Val: {val_acc:.4f}, Test: {test_acc:.4f}")
            if val_acc > best_val_acc:
                best_val_acc = val_acc
                final_test_acc = test_acc
                torch.save(model.state_dict(), os.path.join(out_dir, f"gat_run{run}.pt"))
    test_accs.append(final_test_acc)

test_acc = torch.tensor(test_accs)
print("============================")
print(f"Final Test: {test_acc.mean():.4f} ± {test_acc.std():.4f}")
