"""BiLSTM-attention classifier whose hand-written batch iterator pads with np.zeros((batch, max_len), dtype=np.int64) and also returns a float32 length mask built by comparison, so the Embedding gets int64 ids and the attention mask is float
source: https://github.com/u784799i/biLSTM_attn/issues/2
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import random

import numpy as np
import torch
import torch.nn as nn


def batches(sentences, labels, batch_size):
    for start in range(0, len(sentences), batch_size):
        sents = sentences[start:start + batch_size]
        max_len = max(len(s) for s in sents)
        ids = np.zeros((len(sents), max_len), dtype=np.int64)
        for i, s in enumerate(sents):
            ids[i, :len(s)] = s
        tokens = torch.from_numpy(ids)
        yield tokens, (tokens != 0).float(), torch.tensor(labels[start:start + batch_size])


class BiLSTMAttn(nn.Module):
    def __init__(self, vocab, dim=32, n_classes=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.lstm = nn.LSTM(dim, dim, batch_first=True, bidirectional=True)
        self.attn = nn.Linear(2 * dim, 1)
        self.out = nn.Linear(2 * dim, n_classes)

    def forward(self, tokens, mask):
        h, _ = self.lstm(self.embed(tokens))
        scores = self.attn(h).squeeze(-1).masked_fill(mask == 0, float("-inf"))
        w = torch.softmax(scores, dim=1)
        return self.out((w.unsqueeze(-1) * h).sum(1))


random.seed(0)
sentences = [[random.randint(1, 99) for _ in range(random.randint(3, 12))] for _ in range(64)]
labels = [int(sum(s) % 2) for s in sentences]
model = BiLSTMAttn(vocab=100)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    for tokens, mask, y in batches(sentences, labels, 16):
        loss = nn.functional.cross_entropy(model(tokens, mask), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
print("loss", loss.item())
