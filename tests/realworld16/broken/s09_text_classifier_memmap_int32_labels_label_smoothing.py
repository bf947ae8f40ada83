"""Text classifier reading token ids and labels from np.memmap shards written as int32 by a preprocessing step; the int32 ids are fine for nn.Embedding, but the int32 labels go straight into CrossEntropyLoss(label_smoothing=0.1) inside compute_loss()
source: https://github.com/asyml/texar-pytorch/issues/173
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Int for argument #2 'target'
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 43
root-cause: line 29
expect: DG006
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


def write_shards(root, n=64, seq=12, vocab=50):
    rng = np.random.default_rng(0)
    ids = np.memmap(os.path.join(root, "ids.i32"), dtype=np.int32, mode="w+", shape=(n, seq))
    ids[:] = rng.integers(1, vocab, size=(n, seq))
    labels = np.memmap(os.path.join(root, "labels.i32"), dtype=np.int32, mode="w+", shape=(n,))
    labels[:] = rng.integers(0, 3, size=n)
    ids.flush()
    labels.flush()


def read_shards(root, n=64, seq=12):
    ids = np.memmap(os.path.join(root, "ids.i32"), dtype=np.int32, mode="r", shape=(n, seq))
    labels = np.memmap(os.path.join(root, "labels.i32"), dtype=np.int32, mode="r", shape=(n,))
    return torch.from_numpy(np.array(ids)), torch.from_numpy(np.array(labels))  # root-cause


class BagClassifier(nn.Module):
    def __init__(self, vocab=50, dim=16, n_classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, n_classes)

    def forward(self, ids):
        return self.out(self.emb(ids).mean(1))


def compute_loss(logits, labels, smoothing=0.1):
    return nn.CrossEntropyLoss(label_smoothing=smoothing)(logits, labels)  # fails-here


root = tempfile.mkdtemp()
write_shards(root)
ids, labels = read_shards(root)
model = BagClassifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(0, 64, 16):
    loss = compute_loss(model(ids[step:step + 16]), labels[step:step + 16])
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
