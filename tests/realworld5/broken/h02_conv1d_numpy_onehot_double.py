"""Character-level Conv1d text classifier whose one-hot batches are built with np.zeros (float64) and wrapped by torch.from_numpy
source: https://github.com/pytorch/pytorch/issues/1498
reported-error: Conv1d only accepts FloatTensor: feeding the DoubleTensor one-hot batch to nn.Conv1d errors out (expected Double tensor (got Float tensor) on the reporter's torch)
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 37
root-cause: line 20
expect: DG005
"""
import string

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ALPHABET = string.ascii_lowercase + " .,!?"
MAX_LEN = 15


def one_hot_batch(texts, alphabet=ALPHABET, max_len=MAX_LEN):
    batch = np.zeros((len(texts), len(alphabet), max_len))  # root-cause
    for i, text in enumerate(texts):
        for j, ch in enumerate(text[:max_len]):
            k = alphabet.find(ch)
            if k >= 0:
                batch[i, k, j] = 1
    return torch.from_numpy(batch)


class CharCNN(nn.Module):
    def __init__(self, n_chars=len(ALPHABET), n_classes=2):
        super().__init__()
        self.conv_1 = nn.Conv1d(n_chars, 32, 3)
        self.conv_2 = nn.Conv1d(32, 32, 3)
        self.fc = nn.Linear(32, n_classes)

    def forward(self, x):
        x = F.relu(self.conv_1(x))  # fails-here
        x = F.relu(self.conv_2(x))
        return self.fc(x.max(dim=2).values)


def make_corpus(n=64, seed=0):
    rng = np.random.default_rng(seed)
    pos = ["great movie", "loved it!", "very good", "nice one"]
    neg = ["bad movie", "hated it.", "very poor", "awful, no"]
    labels = rng.integers(0, 2, n)
    texts = [(pos if y else neg)[rng.integers(0, 4)] for y in labels]
    return texts, torch.from_numpy(labels)


if __name__ == "__main__":
    texts, labels = make_corpus()
    model = CharCNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        for i in range(0, len(texts), 16):
            x_stub = one_hot_batch(texts[i:i + 16])
            loss = F.cross_entropy(model(x_stub), labels[i:i + 16])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print("epoch", epoch, loss.item())
