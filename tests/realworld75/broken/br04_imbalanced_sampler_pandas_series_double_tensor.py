"""A torchsampler-style oversampling run (re-typed ImbalancedDatasetSampler between ufoym/imbalanced-dataset-sampler PRs #29 and #31: class counts from a pandas value_counts, per-sample weights 1 / count of the sample's label, torch.multinomial over them) on an imbalanced MNIST-like digit set: the per-sample weights are still a pandas Series when torch.DoubleTensor is asked to build the sampler's weight tensor, and it refuses
source: https://github.com/ufoym/imbalanced-dataset-sampler/pull/31
reported-error: "I still have error with the MNIST dataset ... sampler=ImbalancedDatasetSampler(mnist) ... torchsampler/imbalanced.py in __init__: 36 weights = 1.0 / label_to_count[df["label"]] ---> 38 self.weights = torch.DoubleTensor(weights) ValueError: too many dimensions 'Series'" (fixed in the merged PR by torch.DoubleTensor(weights.to_list()))
outcome: ValueError: too many dimensions 'Series' at line 37
root-cause: line 37
expect: DG004
"""
from typing import Callable

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.utils.data

torch.manual_seed(0)


class ImbalancedDatasetSampler(torch.utils.data.sampler.Sampler):
    """Samples elements randomly from a given list of indices for imbalanced dataset"""

    def __init__(self, dataset, indices: list = None, num_samples: int = None, callback_get_label: Callable = None):
        self.indices = list(range(len(dataset))) if indices is None else indices
        self.callback_get_label = callback_get_label
        self.num_samples = len(self.indices) if num_samples is None else num_samples

        # distribution of classes in the dataset
        df = pd.DataFrame()
        df["label"] = self._get_labels(dataset)
        df.index = self.indices
        df = df.sort_index()

        label_to_count = df["label"].value_counts()

        weights = 1.0 / label_to_count[df["label"]]

        self.weights = torch.DoubleTensor(weights)  # root-cause  # fails-here

    def _get_labels(self, dataset):
        if self.callback_get_label:
            return self.callback_get_label(dataset)
        elif isinstance(dataset, torch.utils.data.Dataset):
            return dataset.get_labels()
        raise NotImplementedError

    def __iter__(self):
        return (self.indices[i] for i in torch.multinomial(self.weights, self.num_samples, replacement=True))

    def __len__(self):
        return self.num_samples


class ImbalancedDigits(torch.utils.data.Dataset):
    """MNIST stand-in: 8x8 digit-like images, digit 0 ten times more frequent than digits 1..4."""

    def __init__(self, rng):
        counts = [500, 50, 50, 50, 50]
        self.targets = np.concatenate([np.full(n, d) for d, n in enumerate(counts)])
        protos = rng.normal(size=(5, 64)).astype(np.float32)
        self.data = protos[self.targets] + 0.8 * rng.normal(size=(len(self.targets), 64)).astype(np.float32)

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, i):
        return torch.from_numpy(self.data[i]), int(self.targets[i])

    def get_labels(self):
        return self.targets.tolist()


mnist = ImbalancedDigits(np.random.default_rng(0))
train_loader = torch.utils.data.DataLoader(mnist, sampler=ImbalancedDatasetSampler(mnist), batch_size=64)

model = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 5))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    seen = torch.zeros(5, dtype=torch.long)
    for x, y in train_loader:
        seen += torch.bincount(y, minlength=5)
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f} labels drawn per class {seen.tolist()}")
