"""BiLSTM-attention text classifier with a hand-written iterator-style DataLoader class whose __next__ pads token ids into np.zeros((batch, max_len)) (float64 by default) and returns torch.from_numpy of it; the Embedding receives float64 indices
source: https://github.com/u784799i/biLSTM_attn/issues/2
reported-error: RuntimeError: Expected tensor for argument #1 'indices' to have scalar type Long; but got torch.IntTensor instead (while checking arguments for embedding)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.DoubleTensor instead (while checking arguments for embedding) at line 46
root-cause: line 31
expect: DG005
"""
import random

import numpy as np
import torch
import torch.nn as nn


class BatchIterator:
    def __init__(self, sentences, labels, batch_size, pad=0):
        self.sentences, self.labels, self.bs, self.pad = sentences, labels, batch_size, pad
        self.pos = 0

    def __iter__(self):
        self.pos = 0
        return self

    def __next__(self):
        if self.pos >= len(self.sentences):
            raise StopIteration
        sents = self.sentences[self.pos:self.pos + self.bs]
        labels = self.labels[self.pos:self.pos + self.bs]
        self.pos += self.bs
        max_len = max(len(s) for s in sents)
        inst_data = np.zeros((len(sents), max_len))  # root-cause
        for i, s in enumerate(sents):
            inst_data[i, :len(s)] = s
        return torch.from_numpy(inst_data), torch.tensor(labels)


class BiLSTMAttn(nn.Module):
    def __init__(self, vocab, dim=32, n_classes=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.lstm = nn.LSTM(dim, dim, batch_first=True, bidirectional=True)
        self.attn = nn.Linear(2 * dim, 1)
        self.out = nn.Linear(2 * dim, n_classes)

    def forward(self, tokens):
        h, _ = self.lstm(self.embed(tokens))  # fails-here
        w = torch.softmax(self.attn(h).squeeze(-1), dim=1)
        return self.out((w.unsqueeze(-1) * h).sum(1))


random.seed(0)
sentences = [[random.randint(1, 99) for _ in range(random.randint(3, 12))] for _ in range(64)]
labels = [int(sum(s) % 2) for s in sentences]
model = BiLSTMAttn(vocab=100)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    for tokens, y in BatchIterator(sentences, labels, batch_size=16):
        loss = nn.functional.cross_entropy(model(tokens), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
print("loss", loss.item())
