"""MAGNET-style multi-label text classifier whose encode_texts() pads the token ids into torch.tensor(rows, dtype=torch.long) before nn.Embedding; the multi-hot labels stay float32 for BCEWithLogitsLoss
source: https://github.com/adrinta/MAGNET/issues/6
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import re
from collections import Counter

import numpy as np
import torch
import torch.nn as nn

TEXTS = ["stocks fall as rates rise", "team wins the cup final", "new vaccine trial shows promise",
         "rates rise again central bank says", "final score surprises fans", "trial of new cancer drug"] * 8
LABELS = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 0, 1]] * 8, dtype=np.float32)


# ---- preprocessing.py
def build_vocab(texts, min_freq=1):
    counts = Counter(w for t in texts for w in re.findall(r"\w+", t.lower()))
    vocab = {"<pad>": 0, "<unk>": 1}
    for w, c in counts.most_common():
        if c >= min_freq:
            vocab[w] = len(vocab)
    return vocab


def encode_texts(texts, vocab, max_len=8):
    rows = []
    for t in texts:
        ids = [vocab.get(w, 1) for w in re.findall(r"\w+", t.lower())][:max_len]
        rows.append(ids + [0] * (max_len - len(ids)))
    return torch.tensor(rows, dtype=torch.long)


# ---- models.py
class MAGNET(nn.Module):
    def __init__(self, vocab_size, n_labels, emb=32, hidden=32):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb, padding_idx=0)
        self.rnn = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.label_embedding = nn.Parameter(torch.randn(n_labels, 2 * hidden) * 0.1)
        self.adjacency = nn.Parameter(torch.eye(n_labels))

    def forward(self, token):
        features = self.embedding(token)
        out, _ = self.rnn(features)
        sentence = out.mean(1)
        labels = torch.tanh(self.adjacency @ self.label_embedding)
        return sentence @ labels.t()


def train(model, X, y, epochs=3, batch_size=16):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        perm = torch.randperm(len(X))
        for k in range(0, len(X), batch_size):
            idx = perm[k:k + batch_size]
            loss = criterion(model(X[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print("epoch", epoch, "loss", round(loss.item(), 4))


if __name__ == "__main__":
    vocab = build_vocab(TEXTS)
    X = encode_texts(TEXTS, vocab)
    model = MAGNET(len(vocab), LABELS.shape[1])
    train(model, X, torch.from_numpy(LABELS))
