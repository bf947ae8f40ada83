"""Active-learning text classifier: the labelled pool is persisted with np.save as int32 and read back with np.load; the custom collate_fn turns the stacked labels into a tensor with torch.from_numpy, so the weighted CrossEntropyLoss gets int32 targets
source: https://github.com/webis-de/small-text/issues/25
reported-error: RuntimeError: expected scalar type Long but found Int
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 46
root-cause: line 30
expect: DG006
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Subset, TensorDataset

workdir = tempfile.mkdtemp()
rng = np.random.default_rng(0)
np.save(os.path.join(workdir, "pool_x.npy"), rng.normal(size=(200, 24)).astype(np.float32))
np.save(os.path.join(workdir, "pool_y.npy"), rng.integers(0, 3, 200).astype(np.int32))


def load_pool(directory):
    x = np.load(os.path.join(directory, "pool_x.npy"))
    y = np.load(os.path.join(directory, "pool_y.npy"))
    return x, y


def collate_labeled(batch):
    xs, ys = zip(*batch)
    return torch.stack(xs), torch.from_numpy(np.stack(ys))  # root-cause


def query_random(n_pool, n_query, seed=0):
    return np.random.default_rng(seed).choice(n_pool, n_query, replace=False).tolist()


class ActiveLearner:
    def __init__(self, n_features, n_classes, class_counts):
        self.model = nn.Sequential(nn.Linear(n_features, 32), nn.ReLU(), nn.Linear(32, n_classes))
        weights = torch.tensor(class_counts.sum() / (n_classes * class_counts), dtype=torch.float32)
        self.criterion = nn.CrossEntropyLoss(weight=weights)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)

    def fit(self, loader):
        for x, y in loader:
            loss = self.criterion(self.model(x), y)  # fails-here
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
        return loss.item()


x, y = load_pool(workdir)
pool = [(torch.from_numpy(x[i]), y[i]) for i in range(len(y))]
labeled = Subset(pool, query_random(len(pool), 40))
learner = ActiveLearner(24, 3, np.bincount(y, minlength=3))
print("loss", learner.fit(DataLoader(labeled, batch_size=10, collate_fn=collate_labeled)))
