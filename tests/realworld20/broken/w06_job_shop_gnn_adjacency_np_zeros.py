"""Job-shop scheduling GNN in pure torch: AdjData builds the precedence/machine adjacency tensor from an np.zeros buffer (float64 by default) and the message-passing layer multiplies it with float32 operation embeddings
source: https://github.com/Pabloo22/gnn_scheduler/issues/1
reported-error: Fix AdjData.adj_matrix creation: change dtype of adj_matrix to torch.float32 (and its shape from [N, N, 2] to [2, N, N])
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at line 47
root-cause: line 25
expect: DG004
"""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn


# ---- gnn_scheduler/jssp_graph.py
@dataclass
class AdjData:
    x: torch.Tensor
    adj_matrix: torch.Tensor


def build_adj_data(jobs, n_machines):
    ops = [(j, k, m, d) for j, job in enumerate(jobs) for k, (m, d) in enumerate(job)]
    n = len(ops)
    adj = np.zeros((2, n, n))  # root-cause
    for a, (ja, ka, ma, _) in enumerate(ops):
        for b, (jb, kb, mb, _) in enumerate(ops):
            if ja == jb and kb == ka + 1:
                adj[0, a, b] = 1.0
            if ma == mb and a != b:
                adj[1, a, b] = 1.0
    feats = np.array([[d / 10.0, m / n_machines, k / len(jobs[j])] for j, k, m, d in ops], dtype=np.float32)
    return AdjData(x=torch.from_numpy(feats), adj_matrix=torch.from_numpy(adj))


# ---- gnn_scheduler/model.py
class RelationalGCN(nn.Module):
    def __init__(self, dim_in, dim_out, n_rel=2):
        super().__init__()
        self.rel = nn.ModuleList(nn.Linear(dim_in, dim_out, bias=False) for _ in range(n_rel))
        self.self_loop = nn.Linear(dim_in, dim_out)

    def forward(self, x, adj):
        deg = adj.sum(-1, keepdim=True).clamp(min=1)
        out = self.self_loop(x)
        for r, lin in enumerate(self.rel):
            out = out + (adj[r] / deg[r]) @ lin(x)  # fails-here
        return torch.relu(out)


class MakespanRegressor(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.g1, self.g2 = RelationalGCN(3, dim), RelationalGCN(dim, dim)
        self.readout = nn.Linear(dim, 1)

    def forward(self, data):
        h = self.g2(self.g1(data.x, data.adj_matrix), data.adj_matrix)
        return self.readout(h.mean(0))


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    jobs = [[(int(m), int(rng.integers(1, 10))) for m in rng.permutation(3)] for _ in range(4)]
    data = build_adj_data(jobs, n_machines=3)
    model = MakespanRegressor()
    pred = model(data)
    loss = nn.functional.mse_loss(pred, torch.tensor([25.0]))
    loss.backward()
    print("predicted makespan", pred.item())
