"""Bag-of-words classifier: a hand-written tokenizer turns each text into integer word counts and the Dataset stores them with torch.tensor(list_of_int_lists), i.e. int64; batches drawn by a custom class-balanced sampler go straight into nn.Linear
source: https://github.com/pytorch/pytorch/issues/4960
reported-error: the first Linear layer fails on the integer input tensor (confusing addmm/matmul error message; today: mat1 and mat2 must have the same dtype, but got Long and Float)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float at line 67
root-cause: line 35
expect: DG005
"""
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, Sampler

TEXTS = [("great fun great cast", 1), ("dull plot dull pacing", 0), ("fun cast great score", 1),
         ("boring dull ending", 0), ("great great ending", 1), ("plot holes boring", 0)] * 6


def build_vocab(texts):
    vocab = {}
    for text, _ in texts:
        for w in text.split():
            vocab.setdefault(w, len(vocab))
    return vocab


def count_vector(text, vocab):
    v = [0] * len(vocab)
    for w in text.split():
        v[vocab[w]] += 1
    return v


class CountsDataset(Dataset):
    def __init__(self, texts, vocab):
        self.x = torch.tensor([count_vector(t, vocab) for t, _ in texts])  # root-cause
        self.y = torch.tensor([lab for _, lab in texts])

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class BalancedSampler(Sampler):
    def __init__(self, labels, seed=0):
        self.by_class = {}
        for i, lab in enumerate(labels):
            self.by_class.setdefault(int(lab), []).append(i)
        self.rng = random.Random(seed)

    def __iter__(self):
        pools = [self.rng.sample(v, len(v)) for v in self.by_class.values()]
        for group in zip(*pools):
            yield from group

    def __len__(self):
        return min(len(v) for v in self.by_class.values()) * len(self.by_class)


class BowClassifier(nn.Module):
    def __init__(self, n_vocab):
        super().__init__()
        self.fc = nn.Linear(n_vocab, 2)

    def forward(self, counts):
        return self.fc(counts)  # fails-here


def main():
    vocab = build_vocab(TEXTS)
    ds = CountsDataset(TEXTS, vocab)
    loader = DataLoader(ds, batch_size=4, sampler=BalancedSampler(ds.y))
    model = BowClassifier(len(vocab))
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
