"""Fixed Dive-into-DL#31 as suggested in the thread: features and noise converted with .to(torch.float32)
source: https://github.com/ShusenTang/Dive-into-DL-PyTorch/issues/31
reported-error: RuntimeError: Expected object of scalar type Double but got scalar type Float for argument #2 'mat2'
outcome: ok
root-cause: none
expect: none
"""
import random

import numpy as np
import torch

num_inputs = 2
num_examples = 200
true_w = [2, -3.4]
true_b = 4.2
features = torch.from_numpy(np.random.normal(0, 1, (num_examples, num_inputs)))
features = features.to(torch.float32)
labels = true_w[0] * features[:, 0] + true_w[1] * features[:, 1] + true_b
dd = torch.from_numpy(np.random.normal(0, 0.01, size=labels.size()))
dd = dd.to(torch.float32)
labels += dd


def data_iter(batch_size, features, labels):
    indices = list(range(len(features)))
    random.shuffle(indices)
    for i in range(0, len(features), batch_size):
        j = torch.LongTensor(indices[i: min(i + batch_size, len(features))])
        yield features.index_select(0, j), labels.index_select(0, j)


w = torch.tensor(np.random.normal(0, 0.01, (num_inputs, 1)), dtype=torch.float32, requires_grad=True)
b = torch.zeros(1, dtype=torch.float32, requires_grad=True)


def linreg(X, w, b):
    return torch.mm(X, w) + b


for epoch in range(2):
    for X, y in data_iter(10, features, labels):
        l = ((linreg(X, w, b) - y.view(-1, 1)) ** 2 / 2).sum()
        l.backward()
        with torch.no_grad():
            for param in (w, b):
                param -= 0.03 * param.grad / 10
                param.grad.zero_()
