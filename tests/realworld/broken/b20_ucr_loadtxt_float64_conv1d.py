"""Time-series classifier: UCR-style data read with np.loadtxt (float64) into a Conv1d model
source: https://github.com/timeseriesAI/tsai/issues/468
reported-error: RuntimeError: Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should be the same
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 37
root-cause: line 23
expect: DG004
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def get_UCR_data(dsid, path):
    fname = os.path.join(path, dsid + "_TRAIN.tsv")
    rng = np.random.default_rng(0)
    rows = np.column_stack([rng.integers(0, 3, 40), rng.normal(size=(40, 50))])
    np.savetxt(fname, rows, delimiter="\t")
    data = np.loadtxt(fname, delimiter="\t")
    X = data[:, 1:][:, None, :]  # root-cause
    y = data[:, 0].astype(np.int64)
    return X, y


class InceptionBlockLite(nn.Module):
    def __init__(self, c_in, c_out, seq_len):
        super().__init__()
        self.convs = nn.ModuleList([nn.Conv1d(c_in, 8, k, padding=k // 2) for k in (9, 19, 39)])
        self.bn = nn.BatchNorm1d(24)
        self.gap = nn.AdaptiveAvgPool1d(1)
        self.fc = nn.Linear(24, c_out)

    def forward(self, x):
        x = torch.cat([conv(x) for conv in self.convs], dim=1)  # fails-here
        x = torch.relu(self.bn(x))
        return self.fc(self.gap(x).squeeze(-1))


X, y = get_UCR_data("NATOPS", tempfile.mkdtemp())
dls = DataLoader(TensorDataset(torch.from_numpy(X), torch.from_numpy(y)), batch_size=8, shuffle=True)
model = InceptionBlockLite(1, 3, X.shape[-1])
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_func = nn.CrossEntropyLoss()
for xb, yb in dls:
    opt.zero_grad()
    loss = loss_func(model(xb), yb)
    loss.backward()
    opt.step()
