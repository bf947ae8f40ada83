"""FedAvg simulation: split_clients() hands each client its labels as np.float32 arrays (sliced out of a float feature+label matrix), the client update builds TensorDatasets from them and calls nn.CrossEntropyLoss with float class indices; server averages the state_dicts
source: https://github.com/dnn-security/Watermark-Robustness-Toolbox/issues/2
reported-error: "nll_loss_forward_reduce_cuda_kernel_2d_index" not implemented for 'Float' (fixed by labels=labels.to(torch.int64) before criterion(outputs, labels))
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 35
root-cause: line 25
expect: DG006
"""
import copy

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_table(n=600, d=10, n_classes=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] > 0).astype(int) + (X[:, 1] > 1).astype(int)
    return np.hstack([X, y[:, None]]).astype(np.float32)


def split_clients(table, n_clients=4):
    parts = np.array_split(table, n_clients)
    return [(p[:, :-1], p[:, -1]) for p in parts]  # root-cause


def client_update(global_model, X, y, epochs=1):
    model = copy.deepcopy(global_model)
    loader = DataLoader(TensorDataset(torch.from_numpy(X), torch.from_numpy(y)), batch_size=32, shuffle=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    criterion = nn.CrossEntropyLoss()
    for _ in range(epochs):
        for xb, yb in loader:
            loss = criterion(model(xb), yb)  # fails-here
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model.state_dict(), len(y)


def fed_avg(states, sizes):
    total = sum(sizes)
    avg = copy.deepcopy(states[0])
    for k in avg:
        avg[k] = sum(s[k] * (n / total) for s, n in zip(states, sizes))
    return avg


clients = split_clients(make_table())
global_model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
for rnd in range(3):
    results = [client_update(global_model, X, y) for X, y in clients]
    global_model.load_state_dict(fed_avg([r[0] for r in results], [r[1] for r in results]))
    print("round", rnd, "done")
